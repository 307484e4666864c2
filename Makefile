# OpenBench convention: `make EXE=name` builds the release binary under that name.
EXE ?= cutlab

.PHONY: all clean
all:
	cargo build --release -p cutlab
	cp target/release/cutlab $(EXE)

clean:
	cargo clean
