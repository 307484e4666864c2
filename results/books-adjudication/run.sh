#!/usr/bin/env bash
# Book study: nElo of three known comparisons on three opening sets, no adjudication, each
# move's score recorded (for the adjudication replay). Resumable: run again to continue.
# Usage: ./run.sh NODES GAMES... (stages: every match to the first count, then the next)
set -u
cd "$(dirname "$0")"
nodes=$1; shift
S="null-move-modern+lmr+rfp+razoring+futility+lmp+see-pruning+history-pruning+sf-probcut+sf-probcut-in-check+singular+iir"
declare -A variant=(
  [without-rfp]="${S/+rfp/}+nnue"
  [without-lmr]="${S/+lmr/}+nnue"
  [without-see-pruning]="${S/+see-pruning/}+nnue"
)
conc=${CONC:-2}
for games in "$@"; do
  for book in builtin UHO_4060_v4 8mvs_big_+80_+109; do
    for c in without-rfp without-lmr without-see-pruning; do
      out="n$nodes/$book/$c"
      mkdir -p "n$nodes/$book"
      book_args=()
      [ "$book" != builtin ] && book_args=(--openings "$book.epd")
      resume=()
      [ -s "$out.csv" ] && resume=(--resume)
      ./cutlab match --engine "variant=${variant[$c]}" "name=$c" --engine variant=modern+nnue name=modern \
        --nodes "$nodes" --games "$games" --concurrency "$conc" --order random --seed 1 "${book_args[@]}" \
        --out "$out.csv" --pgn "$out.pgn" --scores "$out.scores.csv" "${resume[@]}" > "$out.summary.txt" 2>> "$out.log" || echo "FAILED $out"
    done
  done
done
