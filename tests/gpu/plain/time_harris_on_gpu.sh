#!/usr/bin/env bash
# tests/gpu/plain/time_harris_on_gpu.sh RLAB SOURCE_DIR OUT_DIR — Harris's seven kernels from the plain corpus, as
# written, timed uninstrumented on the GPU at Harris's input (2^22 ints, 128 threads a block) through
# `rlab run --backend cuda --time`, each repetition checked against n(n+1)/2 by rlab; then Nsight Compute's
# shared-memory bank-conflict and branch counters on each kernel's first launch. A measurement: it fails (exit 1) only
# when a kernel's result is wrong or rlab cannot time it; exit 77 without a GPU. Writes OUT_DIR/harris-table.md.
set -u
rlab=$1
src=$2
out=$3
corpus=$src/tests/cuda/corpus
mkdir -p "$out"
if ! nvidia-smi -L 2>/dev/null | grep -q "^GPU "; then echo "SKIPPED: no GPU (nvidia-smi lists none)"; exit 77; fi
n=4194304
fail=0

# Each kernel's plan: the first launch over the input at 128 threads a block, then launches that fold the partials
# (kernels 1-3 reduce one element a thread, 4-6 two, 7 a grid-stride loop over 512 blocks). out starts at 0 (the
# contract), so a final in-place block may read zeros past the partials.
declare -A file plan
file[1]=harris1_interleaved_modulo.cu;  plan[1]='harris1<<<32768,128,512>>>(in,tmp,n);harris1<<<256,128,512>>>(tmp,out,32768);harris1<<<1,256,1024>>>(out,out,256)'
file[2]=harris2_strided_index.cu;       plan[2]='harris2<<<32768,128,512>>>(in,tmp,n);harris2<<<256,128,512>>>(tmp,out,32768);harris2<<<1,256,1024>>>(out,out,256)'
file[3]=harris3_sequential.cu;          plan[3]='harris3<<<32768,128,512>>>(in,tmp,n);harris3<<<256,128,512>>>(tmp,out,32768);harris3<<<1,256,1024>>>(out,out,256)'
file[4]=harris4_first_add_during_load.cu; plan[4]='harris4<<<16384,128,512>>>(in,tmp,n);harris4<<<64,128,512>>>(tmp,out,16384);harris4<<<1,64,256>>>(out,out,128)'
file[5]=harris5_unroll_last_warp.cu;    plan[5]='harris5<<<16384,128,512>>>(in,tmp,n);harris5<<<64,128,512>>>(tmp,out,16384);harris5<<<1,64,256>>>(out,out,128)'
file[6]=harris6_complete_unroll.cu;     plan[6]='harris6<128><<<16384,128,512>>>(in,tmp,n);harris6<128><<<64,128,512>>>(tmp,out,16384);harris6<64><<<1,64,256>>>(out,out,128)'
file[7]=harris7_multiple_elements.cu;   plan[7]='harris7<128><<<512,128,512>>>(in,tmp,n);harris7<128><<<1,128,512>>>(tmp,out,512)'

for k in 1 2 3 4 5 6 7; do
  "$rlab" run "$corpus/${file[$k]}" --backend cuda --time --n $n --launch "${plan[$k]}" --format json \
    -o "$out/harris$k-time.json" >"$out/harris$k-time.log" 2>&1
  code=$?
  [ "$code" -eq 0 ] || { echo "FAIL: kernel $k: exit $code: $(tail -2 "$out/harris$k-time.log")"; fail=1; }
done

# Nsight Compute on the first launch of each kernel (the first warm-up of the timed row): bank conflicts of shared
# loads and stores, the share of branches every thread of a warp takes the same way, and active threads per warp
# instruction (all, and those whose predicate is on: a predicated branch shows only there).
# --clock-control none: the clocks as the timing saw them.
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics=$metrics,smsp__sass_average_branch_targets_threads_uniform.pct,smsp__thread_inst_executed_per_inst_executed.ratio
metrics=$metrics,smsp__thread_inst_executed_pred_on_per_inst_executed.ratio
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,gpu__time_duration.sum
if command -v ncu >/dev/null; then
  for k in 1 2 3 4 5 6 7; do
    timeout 120 ncu --clock-control none --kernel-name "regex:harris$k" --launch-count 1 --metrics "$metrics" --csv \
      "$rlab" run "$corpus/${file[$k]}" --backend cuda --time --n $n --launch "${plan[$k]}" \
      >"$out/harris$k-ncu.csv" 2>"$out/harris$k-ncu.err" || echo "note: ncu on kernel $k: exit $?"
  done
else
  echo "note: ncu is not on the PATH: no counters"
fi

python3 - "$out" <<'PY'
import csv, io, json, os, sys
out = sys.argv[1]
g80_ms = {1: 8.054, 7: 0.268}  # Harris's G80 figures that the chapter notes quote (first and last kernel)
rows, times = [], []
for k in range(1, 8):
    try:
        t = json.load(open(f"{out}/harris{k}-time.json"))["kernel_timing"]
    except Exception as e:
        rows.append(f"| {k} | no timing ({e}) | | | | | | | |"); continue
    r = t["rows"][0]
    us = r["median_us"]
    step = f"{times[-1] / us:.2f}x" if times else "-"
    cum = f"{(times[0] if times else us) / us:.2f}x"
    times.append(us)
    counters = {}
    try:
        text = open(f"{out}/harris{k}-ncu.csv").read()
        text = text[text.index('"ID"'):] if '"ID"' in text else ""
        for row in csv.DictReader(io.StringIO(text)):
            counters[row["Metric Name"]] = row["Metric Value"]
    except Exception:
        pass
    conf = [counters.get(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{o}.sum", "-") for o in ("ld", "st")]
    uni = counters.get("smsp__sass_average_branch_targets_threads_uniform.pct", "-")
    act = counters.get("smsp__thread_inst_executed_per_inst_executed.ratio", "-")
    on = counters.get("smsp__thread_inst_executed_pred_on_per_inst_executed.ratio", "-")
    g80 = f"{g80_ms[k]:.3f}" if k in g80_ms else "-"
    ok = "yes" if r["wrong"] == 0 else f"{r['wrong']} wrong"
    rows.append(f"| {k} | {us:.2f} | {r['gbps']:.0f} | {step} | {cum} | {conf[0]} / {conf[1]} | {uni} | {act} | {on} | {g80} | {r['reps']} ({ok}) |")
head = ("| kernel | H200 µs (median) | GB/s | step speed-up | cumulative | shared bank conflicts ld / st (first launch) "
        "| uniform branches % | threads per warp instruction | of them predicated on | G80 ms (Harris) "
        "| repetitions checked |\n|---|---|---|---|---|---|---|---|---|---|---|")
open(f"{out}/harris-table.md", "w").write(head + "\n" + "\n".join(rows) + "\n")
print(head); print("\n".join(rows))
PY
exit $fail
