#!/usr/bin/env bash
# The book-and-adjudication run as a study: games CSVs gzipped, scores xz-compressed, PGNs
# packed, configurations kept, the manifest written, the report written by cutlab report.
# Usage: publish.sh STUDY   (run in the run folder)
set -euo pipefail
study=$1
cutlab=${CUTLAB:-./cutlab}
rm -rf "$study.new"; mkdir -p "$study.new"
pgns=()
for f in n*/*/without-*.csv; do
  case $f in *.scores.csv) continue ;; esac
  stem=${f%.csv}
  mkdir -p "$study.new/$(dirname "$f")"
  gzip -9n -c "$f" > "$study.new/$f.gz"
  cp "$stem.config.toml" "$study.new/$stem.config.toml"
  # The PGN and the scores cut to the CSV's games (a stopped pair may have written them
  # ahead of its rows).
  python3 - "$f" "$stem" "$study.new/$stem" <<'PY'
import csv, re, sys
rows, stem, new = sys.argv[1], sys.argv[2], sys.argv[3]
games = {r['game'] for r in csv.DictReader(open(rows))}
text = open(stem + '.pgn').read()
starts = [m.start() + (0 if m.start() == 0 else 2) for m in re.finditer(r'(?:^|\n\n)\[Event ', text)]
end = starts[len(games)] if len(games) < len(starts) else len(text)
open(new + '.pgn', 'w').write(text[:end])
with open(stem + '.scores.csv') as src, open(new + '.scores.csv', 'w') as dst:
    dst.write(src.readline())
    dst.writelines(line for line in src if line.split(',', 1)[0] in games)
PY
  xz -9e -T1 "$study.new/$stem.scores.csv"
  pgns+=("$study.new/$stem.pgn")
done
"$cutlab" games pack --root "$study.new" "${pgns[@]}" "$study.new/games.moves.csv.xz" > /dev/null
rm "${pgns[@]}"
cp run.sh publish.sh "$study.new/"
cp manifest.toml "$study.new/manifest.toml"
rm -rf "$study"; mv "$study.new" "$study"
"$cutlab" report "$study"
du -sh "$study"
