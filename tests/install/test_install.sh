#!/usr/bin/env bash
# tests/install/test_install.sh — installs a finished build as a user would and checks it from `/` with a clean
# environment: to a temporary prefix (cmake --install), and with --deb also as the Debian package through apt.
# Usage: tests/install/test_install.sh BUILD_DIR [--deb]      (--deb needs root or sudo; removes the package again)
set -uo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
deb=${2:-}
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
tmp=$(mktemp -d /tmp/rlab-install-test.XXXXXX)   # outside the source tree: nothing above it to fall back on
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# run_clean OUT ERR PROGRAM ARGS...: from / with nothing but a PATH and a HOME in the environment
run_clean() {
    local out=$1 err=$2; shift 2
    (cd / && env -i PATH=/usr/bin:/bin HOME="$tmp/home" "$@" >"$out" 2>"$err")
}

# check_installed PREFIX: everything a user of PREFIX/bin gets, checked from outside the source tree.
check_installed() {
    local p=$1 gui=1
    [ -x "$p/bin/reduction-lab-qt" ] || gui=0
    echo "== checking the installation in $p"
    for f in bin/rlab share/reduction-lab/lessons/eight-threads.toml share/reduction-lab/lessons/README.md \
             share/man/man1/rlab.1* share/bash-completion/completions/rlab; do
        compgen -G "$p/$f" >/dev/null || fail "$p/$f is not installed"
    done
    compgen -G "$p/share/reduction-lab/docs/bench/*.json" >/dev/null || fail "no recorded bench results in $p"

    # The three checks of the issue, with only the installed data reachable.
    run_clean "$tmp/out" "$tmp/err" "$p/bin/rlab" lessons --check ||
        { fail "rlab lessons --check (exit $?)"; tail -5 "$tmp/out" "$tmp/err"; }
    grep -q " 0 failure(s)" "$tmp/out" || fail "rlab lessons --check: no '0 failure(s)' summary"
    grep -q "eight-threads" "$tmp/out" || fail "rlab lessons --check did not check eight-threads"
    run_clean "$tmp/out" "$tmp/err" "$p/bin/rlab" bench --recorded || fail "rlab bench --recorded (exit $?): $(cat "$tmp/err")"
    grep -q "^recorded results: $p/share/reduction-lab/docs/bench/.*\.json" "$tmp/out" ||
        fail "rlab bench --recorded did not read the installed results: $(head -1 "$tmp/out")"
    grep -q "two-pass" "$tmp/out" || fail "rlab bench --recorded printed no table"
    if [ "$gui" = 1 ]; then
        rm -f "$tmp/qt.png" "$tmp/qt-scene.json"
        run_clean "$tmp/out" "$tmp/err" xvfb-run -a -s "-screen 0 1600x900x24" "$p/bin/reduction-lab-qt" \
            --lesson eight-threads --step 2 --frames 3 --screenshot "$tmp/qt.png" --dump-scene "$tmp/qt-scene.json" --quit ||
            { fail "reduction-lab-qt --lesson eight-threads --screenshot (exit $?)"; tail -5 "$tmp/err"; }
        # A window that drew the lesson: a PNG with detail (a blank 1600x900 one is a few kB) and a scene with boxes.
        local bytes; bytes=$(stat -c %s "$tmp/qt.png" 2>/dev/null || echo 0)
        [ "$bytes" -gt 40000 ] || fail "reduction-lab-qt screenshot is missing or blank ($bytes bytes)"
        grep -q '"boxes"' "$tmp/qt-scene.json" 2>/dev/null || fail "reduction-lab-qt drew no scene"
        [ -n "${RLAB_KEEP_SCREENSHOT:-}" ] && cp "$tmp/qt.png" "$RLAB_KEEP_SCREENSHOT"
    fi

    # A student's kernel: the installed runner compiles it against the installed rlab/kernel.h and records it.
    local runner="$p/libexec/reduction-lab/rlab-kernel-runner"
    [ -x "$runner" ] && [ -f "$p/include/rlab/kernel.h" ] || fail "rlab-kernel-runner or rlab/kernel.h is not installed in $p"
    printf '%s\n' '#include <rlab/kernel.h>' \
        'RL_KERNEL void one_warp(rl::In<float> in, rl::Out<float> out, int n) {' \
        '    auto v = (int)threadIdx.x < n ? in[threadIdx.x] : rl::identity<float>();' \
        '    for (int offset = 16; offset > 0; offset /= 2) v = v + __shfl_down_sync(0xffffffff, v, offset);' \
        '    if (threadIdx.x == 0) out[0] = v;' '}' >"$tmp/one_warp.cu"
    run_clean "$tmp/out" "$tmp/err" "$runner" "$tmp/one_warp.cu" --n 20 --block 32 --out "$tmp/one_warp.json" ||
        fail "the installed rlab-kernel-runner on a kernel (exit $?): $(head -3 "$tmp/err")"
    grep -q '"verdict": *"exact"' "$tmp/one_warp.json" 2>/dev/null || fail "the installed runner's trace has no exact result"

    # A plain CUDA file: its device side compiles with the installed CUDA headers alone (clang-14, no CUDA).
    if command -v clang-14 >/dev/null; then
        local inc="$p/include/rlab/cuda"
        printf '%s\n' '#include <cooperative_groups.h>' '#include <cooperative_groups/reduce.h>' \
            'namespace cg = cooperative_groups;' \
            '__global__ void warp_sum(const float* in, float* out, int n) {' \
            '    float v = threadIdx.x < n ? in[threadIdx.x] : 0.0f;' \
            '    out[0] = cg::reduce(cg::tiled_partition<32>(cg::this_thread_block()), v, cg::plus<float>());' '}' \
            'int main() { float* d; cudaMalloc(&d, 128); warp_sum<<<1, 32>>>(d, d, 32); return 0; }' >"$tmp/plain.cu"
        run_clean "$tmp/out" "$tmp/err" clang-14 -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc \
            -nocudalib -Wno-unknown-cuda-version -Xclang -target-feature -Xclang +ptx70 -std=c++17 -O1 -emit-llvm \
            -c -o "$tmp/plain.bc" -include "$inc/rlab_prelude.h" -I "$inc" "$tmp/plain.cu" ||
            fail "a plain CUDA file against the installed include/rlab/cuda (exit $?): $(head -3 "$tmp/err")"
        # The installed exercises (plain CUDA) graded by the installed rlab: each bug exits 1, each solution 0.
        local ex flags
        for ex in "$p"/share/reduction-lab/lessons/exercises/*/; do
            mapfile -t flags < <(python3 -c "import tomllib,sys; [print(f) for f in tomllib.load(open(sys.argv[1],'rb'))['run']]" "$ex/exercise.toml")
            run_clean "$tmp/out" "$tmp/err" "$p/bin/rlab" run "$ex/kernel.cu" "${flags[@]}" --backend cpu
            [ $? = 1 ] || fail "the installed exercise $(basename "$ex")'s kernel.cu: expected exit 1: $(head -3 "$tmp/err")"
            run_clean "$tmp/out" "$tmp/err" "$p/bin/rlab" run "$ex/solution.cu" "${flags[@]}" --backend cpu ||
                fail "the installed exercise $(basename "$ex")'s solution.cu (exit $?): $(head -3 "$tmp/err")"
        done
    else
        echo "SKIPPED: clang-14 is not on PATH: the installed CUDA headers are not compiled"
    fi

    # Nothing found names the places looked (the lessons moved away for a moment).
    if [ -w "$p/share/reduction-lab" ]; then
        mv "$p/share/reduction-lab/lessons" "$tmp/lessons.aside"
        run_clean "$tmp/out" "$tmp/err" "$p/bin/rlab" lessons; local rc=$?
        mv "$tmp/lessons.aside" "$p/share/reduction-lab/lessons"
        [ "$rc" = 2 ] || fail "rlab lessons without lessons: exit $rc, expected 2"
        grep -q "looked in: .*$p/share/reduction-lab/lessons/" "$tmp/err" ||
            fail "the missing-lessons error does not name $p/share/reduction-lab/lessons/: $(cat "$tmp/err")"
    fi

    # --version on every program, from the one version in CMake.
    for prog in rlab reduction-lab reduction-lab-qt; do
        [ -x "$p/bin/$prog" ] || continue
        run_clean "$tmp/out" "$tmp/err" "$p/bin/$prog" --version
        [ "$(cat "$tmp/out")" = "$prog $version" ] || fail "$prog --version says '$(cat "$tmp/out")', expected '$prog $version'"
    done

    # Man pages: clean roff, and every flag of the program's --help is in its page.
    for prog in rlab reduction-lab reduction-lab-qt; do
        [ -x "$p/bin/$prog" ] || continue
        local page; page=$(compgen -G "$p/share/man/man1/$prog.1*" | head -n 1)
        [ -n "$page" ] || { fail "no man page for $prog in $p/share/man/man1"; continue; }
        zcat -f "$page" >"$tmp/page.1"
        groff -k -man -ww -z "$tmp/page.1" 2>"$tmp/groff" && [ ! -s "$tmp/groff" ] || fail "$page: groff warns: $(head -3 "$tmp/groff")"
        "$p/bin/$prog" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u >"$tmp/flags"
        while read -r flag; do
            grep -qF -- "${flag//-/\\-}" "$tmp/page.1" || fail "$page lacks $flag of $prog --help"
        done <"$tmp/flags"
    done
    bash "$src/tests/install/test_completion.sh" "$p/bin/rlab" "$p/share/bash-completion/completions/rlab" >"$tmp/out" ||
        fail "bash completion: $(cat "$tmp/out")"

    if [ "$gui" = 1 ]; then
        local ids="org.reductionlab.Classroom org.reductionlab.LabBench" desktops="" metainfos="" id
        for id in $ids; do
            desktops+=" $p/share/applications/$id.desktop"
            metainfos+=" $p/share/metainfo/$id.metainfo.xml"
        done
        # shellcheck disable=SC2086
        desktop-file-validate $desktops >"$tmp/out" 2>&1 || fail "desktop-file-validate: $(cat "$tmp/out")"
        grep -q "error" "$tmp/out" && fail "desktop-file-validate: $(cat "$tmp/out")"
        grep -q '^Exec=reduction-lab-qt %f' "$p/share/applications/org.reductionlab.Classroom.desktop" ||
            fail "the classroom entry opens no file"
        # shellcheck disable=SC2086
        appstreamcli validate --no-net $metainfos >"$tmp/out" 2>&1 || fail "appstreamcli validate: $(cat "$tmp/out")"
        for s in scalable/apps/reduction-lab.svg 48x48/apps/reduction-lab.png 256x256/apps/reduction-lab.png; do
            [ -s "$p/share/icons/hicolor/$s" ] || fail "icon $s is not installed"
        done
    fi
}

echo "== cmake --install $build --prefix $tmp/prefix"
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; exit 1; }
check_installed "$tmp/prefix"

# The metadata templates with screenshots (RLAB_SCREENSHOT_URL set) validate too.
if [ -x "$tmp/prefix/bin/reduction-lab-qt" ]; then
    for t in "$src"/packaging/desktop/*.metainfo.xml.in; do
        sed "s|@RLAB_SCREENSHOT_URL@|https://reduction-lab.test/screenshots|;
             s|@RLAB_APPSTREAM_RELEASES@|<release version=\"$version\" date=\"2026-12-01\"/>|" "$t" >"$tmp/$(basename "${t%.in}")"
    done
    appstreamcli validate --no-net "$tmp"/*.metainfo.xml >"$tmp/out" 2>&1 || fail "metainfo with screenshots: $(cat "$tmp/out")"
    for t in "$src"/packaging/desktop/*.metainfo.xml.in; do
        grep -o 'image>@RLAB_SCREENSHOT_URL@/[^<]*' "$t" | sed 's|.*/||' | while read -r png; do
            [ -f "$src/docs/screenshots/$png" ] || echo "FAIL: $(basename "$t") shows $png, not in docs/screenshots"
        done
    done | grep FAIL && fails=$((fails + 1))
fi

if [ "$deb" = "--deb" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "== cpack -G DEB"
    (cd "$build" && cpack -G DEB >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; exit 1; }
    pkg="$build/reduction-lab_${version}_amd64.deb"
    [ -f "$pkg" ] || { fail "no $pkg"; exit 1; }
    dpkg-deb -c "$pkg" | awk '{print $6}' >"$tmp/files"
    for f in ./usr/bin/rlab ./usr/share/reduction-lab/lessons/eight-threads.toml ./usr/share/man/man1/rlab.1.gz \
             ./usr/share/bash-completion/completions/rlab; do
        grep -qxF "$f" "$tmp/files" || fail "the package lacks $f"
    done
    grep -q '^./usr/share/reduction-lab/docs/bench/.*\.json$' "$tmp/files" || fail "the package lacks the recorded results"
    grep -vq '^./usr/' "$tmp/files" && fail "the package installs outside /usr: $(grep -v '^./usr/' "$tmp/files" | grep -v '^./$' | head -3)"
    depends=$(dpkg-deb -f "$pkg" Depends)
    echo "Depends: $depends"
    for d in libc6 libstdc++6 fonts-dejavu-core; do [[ $depends == *"$d"* ]] || fail "Depends lacks $d"; done
    if [ -x "$tmp/prefix/bin/reduction-lab-qt" ]; then
        for d in libqt6widgets6 libglfw3 libepoxy0; do [[ $depends == *"$d"* ]] || fail "Depends lacks $d"; done
    fi
    [[ $depends == *cuda* || $depends == *nvidia* ]] && fail "Depends names a CUDA or NVIDIA package (the runtime is static)"
    if dpkg-query -W -f='${Status}' reduction-lab 2>/dev/null | grep -q "install ok installed"; then
        fail "reduction-lab is already installed on this machine: not replacing it"
    else
        echo "== apt-get install $pkg"
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >"$tmp/apt.log" 2>&1 ||
            { fail "apt-get install: $(tail -5 "$tmp/apt.log")"; }
        check_installed /usr
        # A CUDA build on a machine without an NVIDIA driver says so in one line and uses the emulator.
        if ! ldconfig -p | grep -q 'libcuda\.so\.1'; then
            run_clean "$tmp/out" "$tmp/err" /usr/bin/rlab trace --n 8 --block 8 || fail "rlab trace without a driver (exit $?)"
            grep -q "^backend: CPU SIMT emulator" "$tmp/out" && grep -qE "^result +36" "$tmp/out" ||
                fail "rlab trace without a driver: not the emulator's 36: $(head -3 "$tmp/out")"
            if grep -qE "^CMAKE_CUDA_COMPILER:[A-Z]+=/" "$build/CMakeCache.txt" && grep -q "^RLAB_CUDA:BOOL=ON" "$build/CMakeCache.txt"; then
                grep -q "using the CPU emulator" "$tmp/err" || fail "the CUDA build did not say it uses the emulator: $(cat "$tmp/err")"
            fi
        fi
        ldd /usr/bin/rlab | grep -q cudart && fail "/usr/bin/rlab links the CUDA runtime dynamically"
        echo "== apt-get remove reduction-lab"
        $SUDO env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq --purge reduction-lab >"$tmp/apt.log" 2>&1 ||
            fail "apt-get remove: $(tail -3 "$tmp/apt.log")"
        [ -e /usr/bin/rlab ] && fail "/usr/bin/rlab is still there after removal"
        [ -e /usr/share/reduction-lab ] && fail "/usr/share/reduction-lab is still there after removal"
    fi
fi

[ "$fails" -eq 0 ] && echo "install tests: all passed"
exit $((fails > 0))
