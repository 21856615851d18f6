# The two commands: `make demo` and `make test`.  Both set up .venv first (scripts/setup.sh).
.PHONY: demo demo-club test setup setup-test bench clean

demo: setup
	.venv/bin/frisian-companion demo

# The club: a local mosquitto (apt-get install mosquitto), three rendered boards and the hub.
demo-club: setup
	.venv/bin/frisian-companion demo --boards 3

# The suite twice, both must pass: on pip's OpenCV and numpy (.venv), then on the Raspberry Pi's,
# Debian's python3-opencv 4.6 and python3-numpy 1.24 (.venv-pi; see scripts/setup.sh).  The
# other renderer (altrender/) is a bench tool that never runs on a Pi: its tests run once.
# Rendered frame sequences are recorded in .cache/frames (renderer/recording.py): the second run
# replays what the first drew, and the next `make test` what the renderer still draws the same.
FRAME_CACHE := $(CURDIR)/.cache/frames
test: setup-test
	FRISIAN_FRAME_CACHE=$(FRAME_CACHE) FRISIAN_TEST_STACK=pip .venv/bin/python -m pytest -q -n 2
	FRISIAN_FRAME_CACHE=$(FRAME_CACHE) FRISIAN_TEST_STACK=pi .venv-pi/bin/python -m pytest -q -n 2 --ignore=tests/test_altrender.py

setup:
	@bash scripts/setup.sh

setup-test:
	@bash scripts/setup.sh --test

bench: setup
	.venv/bin/python -m bench.perft

clean:
	rm -rf .venv .venv-pi .bench-venvs .cache build *.egg-info
