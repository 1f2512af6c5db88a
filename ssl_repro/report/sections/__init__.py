"""The report's sections, one module per artifact of the papers (or per record beyond them): each gives its
section's markdown lines from the records (:class:`ssl_repro.claims.records.Records`), its numbers in the
shared formats of :mod:`ssl_repro.report.tables`; :mod:`ssl_repro.report.page` orders them."""
