"""What the camera saw in passing (`vision.passing`): the order of lifts reported for touch-move
(Art. 15: the piece touched first is the one that must move)."""

from vision.passing import Passing


def test_one_frame_misread_under_the_hand_does_not_put_a_square_first():
    # A man on 28 jumps over 23: on frame 5 the hand carrying it covers 23 and one frame reads
    # 23 empty (barely), while 28 is seen surely empty (counted twice).  23 is seen empty again
    # only once it is taken off (frame 9).  28 was lifted first.
    p = Passing()
    p.seen_empty(23, 5, clear=False, weight=1)
    p.seen_empty(28, 5, clear=False, weight=2)
    p.seen_empty(28, 9, clear=True, weight=2)
    p.seen_empty(23, 9, clear=True, weight=2)
    assert p.lifted([23, 28], need=2) == (28, 23)


def test_lifts_are_reported_in_the_order_seen_and_put_back_only_when_seen_clearly():
    p = Passing()
    p.seen_empty(45, 1, clear=True, weight=2)   # lifted and put back, seen clearly
    p.seen_empty(31, 2, clear=False, weight=2)  # seen only beside the hand: not reported
    p.seen_empty(32, 3, clear=True, weight=1)
    p.seen_empty(32, 4, clear=True, weight=1)
    assert p.lifted([32], need=2) == (45, 32)
    assert p.turned().lifted([19], need=2) == (6, 19)
