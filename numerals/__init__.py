"""Numbers in the reader's own digits: the ``digits`` template filter and, in
Persian, translated sentences whose ``%`` writes numbers in Persian digits."""
