"""Small utilities that know nothing of the methods: atomic file writes (:mod:`.atomic`) and the provenance
of a record (:mod:`.provenance`: machine, date, command, commit), a README's block that a record renders
(:mod:`.marked_block`)."""
