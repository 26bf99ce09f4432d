"""skilldeck's terminal face: the Textual app (app.py, widgets/, screens/) and the CLI (cli*.py)."""

import os

# Both are read by Textual when it is first imported, so they are set here, before any module of
# tui/ imports it; a user's own setting wins.
# Textual draws at most TEXTUAL_FPS frames a second (60 unless set), and once its frame timer has
# run it holds the next frame one to two periods after the last (17-33 ms at 60): the frame of a
# key pressed just after another waited longer than the drawing took. At 240 the wait is 4-8 ms;
# frames are still drawn only when something changed.
os.environ.setdefault("TEXTUAL_FPS", "240")
# The tabs' underline slid to the new tab over 0.3 s on every pane key: some twenty frames, each
# a few ms of the UI loop, in which the next key waited. It moves at once.
os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")
