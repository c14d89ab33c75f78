#!/usr/bin/env bash
# Builds and runs the libFuzzer targets of KeyedArchive.
#
#   Tests/Fuzz/fuzz.sh --list            the target names
#   Tests/Fuzz/fuzz.sh TARGET [SECONDS]  build, then fuzz TARGET for SECONDS (default 60) from its seeds
#   Tests/Fuzz/fuzz.sh TARGET --replay FILE...   build, then run the target once on each FILE
#
# The library modules are compiled once with `swift build -c release -sanitize=fuzzer,address` into
# Tests/Fuzz/.work/build (swiftc has no `fuzzer-no-link`; objects built with `fuzzer` only link into the fuzzer
# binaries below). Each target, Tests/Fuzz/Targets/TARGET.swift, defines LLVMFuzzerTestOneInput and is linked with
# those objects. Seeds: Tests/Fuzz/Seeds/TARGET plus, when present, the matching real files of ../shared/corpus
# (copied into Tests/Fuzz/.work/seeds, never into the repo). New inputs go to Tests/Fuzz/.work/corpus/TARGET;
# crashes, leaks and timeouts to Tests/Fuzz/.work/artifacts/TARGET and make the script exit non-zero.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$here/.work"
shared="$(cd "$root/.." && pwd)/shared/corpus"
targets=(bplist xmlplist unarchiver checkedlist storedalike xib nibarchive compilednib typedstream)
modules=(ArchiveCoding ArchiveSupport FoundationForms PropertyList KeyedArchive ArchiveComparison XIB CompiledNib NibLoading
  Typedstream)

usage() { sed -n '3,6p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# The body is one function, so that editing this file while it runs cannot change a running fuzz session.
main() {
[[ $# -ge 1 ]] || usage
if [[ "$1" == "--list" ]]; then printf '%s\n' "${targets[@]}"; exit 0; fi
target="$1"; shift
[[ " ${targets[*]} " == *" $target "* ]] || { echo "fuzz.sh: unknown target '$target' (see --list)" >&2; exit 2; }

build() {
  echo "fuzz.sh: building the library modules (release, fuzzer+address)…" >&2
  for library in NibLoading Typedstream ArchiveComparison; do
    (cd "$root" && swift build -c release --target "$library" \
      -Xswiftc -sanitize=fuzzer,address --scratch-path "$work/build" >&2)
  done
  local release="$work/build/release" objects=()
  # Only the objects of today's sources: a file deleted or renamed leaves its old object behind in the build folder.
  for module in "${modules[@]}"; do
    while IFS= read -r source; do
      objects+=("$release/$module.build/$(basename "$source").o")
    done < <(find "$root/Sources/$module" -name '*.swift' | sort)
  done
  mkdir -p "$work/bin"
  rm -f "$work/bin/$target"
  echo "fuzz.sh: linking $target…" >&2
  # The package's name as SwiftPM passed it (the folder's name), so that a target may use the modules' package API.
  local package
  package="$(grep -o '"-package-name","[^"]*"' "$work/build/release.yaml" | head -1 | cut -d'"' -f4)"
  swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name "Fuzz_$target" -package-name "${package:-main}" \
    "$here/Targets/$target.swift" -I "$release/Modules" "${objects[@]}" -o "$work/bin/$target" 2>&1 \
    | grep -v "Cannot export local symbol '__asan" >&2 || true
  [[ -x "$work/bin/$target" ]] || { echo "fuzz.sh: link failed" >&2; exit 1; }
}

# Copies the shared corpus files whose first bytes suit TARGET into .work/seeds/TARGET.
shared_seeds() {
  local dir="$work/seeds/$target"
  rm -rf "$dir"; mkdir -p "$dir"
  if [[ ! -d "$shared" ]]; then echo "fuzz.sh: $shared absent; generated seeds only" >&2; return; fi
  local n=0 file magic
  while IFS= read -r -d '' file; do
    magic="$(head -c 10 "$file" | tr -d '\0')"
    local take=0
    case "$target" in
      bplist|checkedlist|storedalike) [[ "$magic" == bplist0* ]] && take=1 ;;
      xmlplist) [[ "$magic" == "<?xml"* ]] && head -c 400 "$file" | grep -q '<plist' && take=1 ;;
      unarchiver) { [[ "$magic" == bplist0* ]] || { [[ "$magic" == "<?xml"* ]] && head -c 400 "$file" | grep -q '<plist'; }; } && take=1 ;;
      xib) [[ "$file" == *.xib || "$file" == *.storyboard ]] && take=1 ;;
      nibarchive) [[ "$magic" == NIBArchive ]] && take=1 ;;
      compilednib) [[ "$magic" == NIBArchive || ( "$magic" == bplist0* && "$file" == *.nib* ) || "$file" == *.xib ]] && take=1 ;;
      typedstream) [[ "$(head -c 13 "$file" | tr -d '\0')" == $'\x04\x0b'@(streamtyped|typedstream) ]] && take=1 ;;
    esac
    if [[ $take == 1 ]]; then n=$((n + 1)); cp "$file" "$dir/$n-$(basename "$file")"; fi
  done < <(find "$shared" -type f -size -2M -print0 | sort -z)
  echo "fuzz.sh: $n seed files from $shared" >&2
}

build
binary="$work/bin/$target"
if [[ "${1:-}" == "--replay" ]]; then
  shift
  LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0" exec "$binary" -runs=1 "$@"
fi
seconds="${1:-60}"
shared_seeds
mkdir -p "$work/corpus/$target" "$work/artifacts/$target"
log="$work/$target.log"
set +e
LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0" "$binary" "$work/corpus/$target" "$here/Seeds/$target" "$work/seeds/$target" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/$target/" 2>&1 | tee "$log" | grep -E 'INITED|DONE|ERROR|SUMMARY|stat::|Test unit written' >&2
status=${PIPESTATUS[0]}
set -e
summary="$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -1)"
echo "fuzz.sh: $target: ${seconds}s, exit $status; last status line: $summary" >&2
echo "fuzz.sh: log $log" >&2
exit "$status"
}

main "$@"
