#!/usr/bin/env bash
# Runs each libFuzzer target for a set time, one after the other, one process each (`make fuzz` calls it).
# Usage: tests/fuzz/run_fuzzers.sh BUILD_DIR SECONDS [TARGET...]   (default: every target)
# New inputs go to BUILD_DIR/corpus/TARGET (the seeds in tests/fuzz/corpus/TARGET are only read); a crash is
# saved as BUILD_DIR/crashes/TARGET-crash-<sha1> (reproduce: BUILD_DIR/TARGET that-file) and makes the run fail.
# Prints the executions of each target (libFuzzer's -print_final_stats=1) at the end. FUZZ_RUNS=N (environment)
# also stops each target after N inputs (docs/hardening.md: the 1,000,000-input runs).
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: run_fuzzers.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: run_fuzzers.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
build=$(cd "$build" && pwd)  # absolute: fuzz_cli_args runs in a directory of its own
src=$(pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_catalog fuzz_user_data fuzz_scenario fuzz_evaluate fuzz_fragment fuzz_store fuzz_import fuzz_training_config fuzz_cli_args)

dict_of() {
  case $1 in
    fuzz_catalog|fuzz_user_data|fuzz_import) echo "$src/tests/fuzz/catalog.dict" ;;
    fuzz_cli_args) echo "$src/tests/fuzz/cli.dict" ;;
    fuzz_training_config) echo "$src/tests/fuzz/training_config.dict" ;;
    *) echo "$src/tests/fuzz/scenario.dict" ;;
  esac
}

failed=()
summary=()
mkdir -p "$build/crashes" "$build/logs"
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t"
  seeds="$src/tests/fuzz/corpus/$t"
  [ "$t" = fuzz_evaluate ] && seeds="$src/tests/fuzz/corpus/fuzz_scenario"  # the same input format
  extra=()
  # The CLI prints its usage errors on stderr at every input; libFuzzer keeps its own reports (and the
  # sanitizers') on a copy of stderr.
  [ "$t" = fuzz_cli_args ] && extra+=(-close_fd_mask=2)
  log="$build/logs/$t.log"
  echo "fuzz: $t for ${seconds} s (log: $log)"
  "$build/$t" "$build/corpus/$t" "$seeds" -dict="$(dict_of "$t")" -max_total_time="$seconds" \
    -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$build/crashes/$t-" \
    ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} "${extra[@]}" \
    >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  if [ $rc -ne 0 ]; then
    failed+=("$t")
    grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz:|.*runtime error)' "$log" | head -n 5
    summary+=("$(printf '%-16s FAILED (exit %d), %s execs; see %s' "$t" "$rc" "${execs:-?}" "$log")")
  else
    summary+=("$(printf '%-16s ok  %12s execs  %8s exec/s' "$t" "${execs:-?}" "${rate:-?}")")
  fi
done
echo ""
echo "fuzz: ${seconds} s per target"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs in $build/crashes/; add each as a regression test, docs/hardening.md)"
  exit 1
fi
