// tests/student/test_launch_syntax.cpp — --launch plans read as CUDA writes launches; malformed ones named exactly.
#include <doctest/doctest.h>
#include <string>
#include "core/error.h"
#include "student/launch_syntax.h"

using namespace rl::student;

namespace {
std::string error_of(const std::string& plan) {
    try {
        parse_launch_plan(plan);
    } catch (const rl::Error& e) {
        return e.what();
    }
    return "(no error)";
}
}  // namespace

TEST_CASE("launch plan: Harris's two launches, shared bytes given and left out, a trailing ';'") {
    const auto plan = parse_launch_plan("harris3<<<64, 64, 256>>>(in, tmp, n);\n  harris3 <<< 1,64 >>> ( tmp , out , 64 ) ;  ");
    REQUIRE(plan.size() == 2);
    CHECK(plan[0].kernel == "harris3");
    CHECK(plan[0].grid == 64);
    CHECK(plan[0].block == 64);
    CHECK(plan[0].shared_bytes == 256);
    REQUIRE(plan[0].args.size() == 3);
    CHECK(plan[0].args[0].kind == PlanArgKind::In);
    CHECK(plan[0].args[1].kind == PlanArgKind::Tmp);
    CHECK(plan[0].args[2].kind == PlanArgKind::N);
    CHECK(plan[0].column == 1);
    CHECK(plan[1].kernel == "harris3");
    CHECK(plan[1].grid == 1);
    CHECK(plan[1].shared_bytes == 0);  // <<<G, B>>>: no dynamic shared memory, as in CUDA
    REQUIRE(plan[1].args.size() == 3);
    CHECK(plan[1].args[0].kind == PlanArgKind::Tmp);
    CHECK(plan[1].args[1].kind == PlanArgKind::Out);
    CHECK(plan[1].args[2].kind == PlanArgKind::Literal);
    CHECK(plan[1].args[2].literal == 64);
    CHECK(plan[1].column == 41);  // after "harris3<<<64, 64, 256>>>(in, tmp, n);\n  " (37 + 1 + 2 characters)
    CHECK(launch_text(plan[1]) == "harris3<<<1, 64>>>(tmp, out, 64)");
}

TEST_CASE("launch plan: template kernels keep their arguments, negative and large literals, no arguments") {
    const auto plan = parse_launch_plan("reduce6 < 256 ><<<8,256,1024>>>(in,out,n);K2<unsigned int, 4><<<1,32>>>(-7, 4294967296);z<<<1,1>>>()");
    REQUIRE(plan.size() == 3);
    CHECK(plan[0].kernel == "reduce6<256>");
    CHECK(plan[1].kernel == "K2<unsigned int, 4>");
    CHECK(plan[1].args[0].literal == -7);
    CHECK(plan[1].args[1].literal == 4294967296ll);
    CHECK(plan[2].kernel == "z");
    CHECK(plan[2].args.empty());
    CHECK(parse_launch_plan("k<Foo<1>><<<1,1>>>(n)")[0].kernel == "k<Foo<1>>");
}

TEST_CASE("launch plan: sixteen launches are the most") {
    std::string p;
    for (int i = 0; i < 16; ++i) p += "k<<<1, 32>>>(in, out, n);";
    CHECK(parse_launch_plan(p).size() == 16);
    CHECK(error_of(p + "k<<<1, 32>>>(in, out, n)").rfind("launch 17, column 401 (at `k<<<1, 32>>>`): a plan has at most 16 launches", 0) == 0);
}

TEST_CASE("launch plan: every malformed plan is one line with the launch, the column and what is allowed") {
    CHECK(error_of("   ") ==
          "launch 1, column 4 (at the end of the plan): the plan is empty: each launch is KERNEL<<<GRID, BLOCK[, SHARED_BYTES]>>>(ARGS), "
          "launches separated by ';'");
    CHECK(error_of("k<<<64, 64>>>(in, tmp, n); k<<<1, 64>>>(tmp, out, G)") ==
          "launch 2, column 51 (at `G)`): `G` is no argument the plan knows: an argument is in, out, tmp, tmpi, n or an integer "
          "(in: the input, out: the result, tmp: the scratch buffer, tmpi: argmax's scratch indices, n: the element count)");
    CHECK(error_of("k<<<64, 64>>>(in, tmp, x)") ==
          "launch 1, column 24 (at `x)`): `x` is no argument the plan knows: an argument is in, out, tmp, tmpi, n or an integer "
          "(in: the input, out: the result, tmp: the scratch buffer, tmpi: argmax's scratch indices, n: the element count)");
    CHECK(error_of("k<<<G, 64>>>(in, out, n)") ==
          "launch 1, column 5 (at `G, 64>>>(in,`): expected the grid (blocks) as a number (decimal digits only: the plan takes "
          "no expressions or names)");
    CHECK(error_of("k<<<4, 64*4>>>(in, out, n)") ==
          "launch 1, column 10 (at `*4>>>(in, ou`): expected '>>>' to close <<<GRID, BLOCK[, SHARED_BYTES]>>>");
    CHECK(error_of("k<<<4 64>>>(in, out, n)") ==
          "launch 1, column 7 (at `64>>>(in, ou`): expected ',' and the block size after the grid: <<<GRID, BLOCK[, SHARED_BYTES]>>>");
    CHECK(error_of("k<<<4, 64, 0, stream>>>(in, out, n)") ==
          "launch 1, column 13 (at `, stream>>>(`): a fourth launch parameter (a stream) is not supported: <<<GRID, BLOCK[, SHARED_BYTES]>>>");
    CHECK(error_of("k<<<4294967296, 64>>>(in)") ==
          "launch 1, column 5 (at `4294967296, `): the grid (blocks) is too large: at most 4294967295");
    CHECK(error_of("k(in, out, n)") ==
          "launch 1, column 2 (at `(in, out, n)`): expected '<<<' after the kernel's name; each launch is KERNEL<<<GRID, BLOCK[, "
          "SHARED_BYTES]>>>(ARGS), launches separated by ';'");
    CHECK(error_of("k<<<1, 1>>>(in out)") ==
          "launch 1, column 16 (at `out)`): expected ',' or ')' after an argument (an argument is in, out, tmp, tmpi, n or an integer)");
    CHECK(error_of("k<<<1, 1>>>(in, out") ==
          "launch 1, column 20 (at the end of the plan): expected ',' or ')' after an argument (an argument is in, out, tmp, tmpi, n or an integer)");
    CHECK(error_of("k<<<1, 1>>>(in) k<<<1, 1>>>(out)") ==
          "launch 1, column 17 (at `k<<<1, 1>>>(`): expected ';' between two launches (or the end of the plan)");
    CHECK(error_of("k<<<1, 1>>>(in);; k<<<1, 1>>>(out)") ==
          "launch 2, column 17 (at `; k<<<1, 1>>`): an empty launch (two ';' in a row, or one at the start); each launch is "
          "KERNEL<<<GRID, BLOCK[, SHARED_BYTES]>>>(ARGS), launches separated by ';'");
    CHECK(error_of("k<64<<<1, 1>>>(in)") ==
          "launch 1, column 15 (at `(in)`): unexpected '(' in the template arguments of k (letters, digits, _, ::, '-' and ',' "
          "are allowed there)");
    CHECK(error_of("k<64") == "launch 1, column 5 (at the end of the plan): the template arguments of k<64 are not closed with '>'");
    CHECK(error_of("k<6.4><<<1, 1>>>(in)") ==
          "launch 1, column 4 (at `.4><<<1, 1>>`): unexpected '.' in the template arguments of k (letters, digits, _, ::, '-' and ',' "
          "are allowed there)");
    CHECK(error_of("1k<<<1, 1>>>(in)") ==
          "launch 1, column 1 (at `1k<<<1, 1>>>`): expected a kernel's name (a template kernel with its arguments: reduce6<256>); "
          "each launch is KERNEL<<<GRID, BLOCK[, SHARED_BYTES]>>>(ARGS), launches separated by ';'");
    CHECK(error_of("k<<<1, 1>>>(99999999999999999999)") ==
          "launch 1, column 13 (at `999999999999`): the integer is too large for 64 bits");
}

TEST_CASE("launch plan: tmpi, argmax's scratch indices, is an argument; a near miss is named") {
    const auto plan = parse_launch_plan("argmax_block<<<2, 32>>>(in, tmp, tmpi, n); argmax_final<<<1, 32>>>(tmp, tmpi, out, 2)");
    REQUIRE(plan.size() == 2);
    REQUIRE(plan[0].args.size() == 4);
    CHECK(plan[0].args[2].kind == PlanArgKind::Tmpi);
    CHECK(plan[0].args[2].text == "tmpi");
    CHECK(plan[1].args[1].kind == PlanArgKind::Tmpi);
    CHECK(std::string(plan_arg_word(PlanArgKind::Tmpi)) == "tmpi");
    CHECK(launch_text(plan[1]) == "argmax_final<<<1, 32>>>(tmp, tmpi, out, 2)");
    const std::string e = error_of("k<<<1, 32>>>(in, tmpx, n)");
    CHECK(e.find("`tmpx` is no argument the plan knows: an argument is in, out, tmp, tmpi, n or an integer") != std::string::npos);
}
