# The two commands: `make demo` and `make test`.  Both set up .venv first (scripts/setup.sh).
.PHONY: demo test setup setup-test bench clean

demo: setup
	.venv/bin/frisian-companion demo

test: setup-test
	.venv/bin/python -m pytest -q

setup:
	@bash scripts/setup.sh

setup-test:
	@bash scripts/setup.sh --test

bench: setup
	.venv/bin/python -m bench.perft

clean:
	rm -rf .venv .bench-venvs build *.egg-info
