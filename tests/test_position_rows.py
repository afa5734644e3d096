"""The position parser reads a row's bytes through a table (tanbo.position._CODES,
for board time): the same board, or the same error, as reading it a character at a time."""

from hypothesis import given, settings, strategies as st

from tanbo.position import _CELL, format_position, parse_position
from tanbo import get_variant

ROWS = 9
CHARS = ".,+XOxo#YzUvQé ?"  # points either case, other players' stones, unknown and non-ASCII characters


def by_character(row):
    # What the parser did before the table: one character at a time, upper case.
    return [_CELL.get(ch.upper()) for ch in row]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(CHARS.replace(" ", ""), min_size=ROWS, max_size=ROWS), min_size=ROWS, max_size=ROWS))
def test_a_row_reads_as_its_characters_do(rows):
    text = "/".join(rows) + " X"
    expected = [c for row in rows for c in by_character(row)]
    bad = next((i for i, c in enumerate(expected) if c is None or c > 2), None)
    try:
        v, board, side = parse_position(text, get_variant, "9x9")
    except ValueError as e:
        assert bad is not None, e
        row, col = divmod(bad, ROWS)
        ch = rows[row][col]
        assert ("row %d, column %s" % (ROWS - row, "ABCDEFGHJ"[col])) in str(e)
        assert repr(ch) in str(e)
        return
    assert bad is None
    assert list(board) == expected and side == 1


@given(st.lists(st.integers(0, 4), min_size=361, max_size=361), st.integers(1, 4))
def test_formatted_text_parses_back_to_its_board(cells, to_move):
    v = get_variant("4p")
    board = bytearray(cells)
    text = format_position(v, board, to_move)
    assert parse_position(text, get_variant, "4p")[1:] == (board, to_move)
