"""The lines between two marker lines of a text (a README's block that a record renders)."""


def with_block(text, start, end, lines):
    """``text`` with the lines between the line ``start`` and the marker ``end`` replaced by ``lines``."""
    head, rest = text.split(start + "\n", 1)
    _, tail = rest.split(end, 1)
    return head + start + "\n" + "\n".join(lines) + "\n" + end + tail
