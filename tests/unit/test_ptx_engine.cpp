// The PTX engine (backends/ptx/, docs/ptx.md): the parser's subset and its error for an
// unknown instruction, the lockstep scheduler (barriers, warp shuffles with full and partial
// masks), the race and barrier findings, memory faults, and the arithmetic's rounding.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backends/ptx/ptx_alu.h"
#include "backends/ptx/ptx_engine.h"
#include "backends/ptx/ptx_parser.h"

using namespace kc::ptx;

namespace {

// A module with one kernel `k(.u64 p0, .u64 p1, .u32 p2)` and `body` inside it.
std::string kernel(const std::string& body, const std::string& decls = "") {
  return ".version 9.0\n.target sm_90\n.address_size 64\n" + decls +
         ".visible .entry k(\n\t.param .u64 k_p0,\n\t.param .u64 k_p1,\n\t.param .u32 k_p2\n)\n{\n"
         "\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<32>;\n\t.reg .f32 %f<16>;\n" +
         body + "\n}\n";
}

struct Run {
  LaunchResult result;
  std::vector<uint32_t> out;
};

// Runs k over grid x block with p0 = in (n words), p1 = out (n words), p2 = n.
Run run(const std::string& text, uint32_t grid, uint32_t block, std::vector<uint32_t> in, uint64_t order = 0) {
  Engine e(parseModule(text, "test.ptx"));
  Run r;
  r.out.assign(in.size(), 0xdeadbeef);
  e.memory().add(in.data(), in.size() * 4);
  e.memory().add(r.out.data(), r.out.size() * 4);
  uint64_t p0 = reinterpret_cast<uint64_t>(in.data()), p1 = reinterpret_cast<uint64_t>(r.out.data());
  uint32_t p2 = static_cast<uint32_t>(in.size());
  void* args[] = {&p0, &p1, &p2};
  LaunchRequest q;
  q.kernel = "k";
  q.grid = {grid, 1, 1};
  q.block = {block, 1, 1};
  q.args = args;
  q.order = order;
  q.instructionLimit = 10000000;
  r.result = e.launch(q);
  return r;
}

// Thread index g = ctaid.x * ntid.x + tid.x, and %rd5 = &in[g], %rd6 = &out[g]; skips to
// DONE when g >= n.
const char* kPrologue =
    "\tld.param.u64 %rd1, [k_p0];\n\tld.param.u64 %rd2, [k_p1];\n\tld.param.u32 %r9, [k_p2];\n"
    "\tcvta.to.global.u64 %rd3, %rd1;\n\tcvta.to.global.u64 %rd4, %rd2;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
    "\tmad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "\tmul.wide.s32 %rd7, %r4, 4;\n\tadd.s64 %rd5, %rd3, %rd7;\n\tadd.s64 %rd6, %rd4, %rd7;\n";

}  // namespace

TEST_CASE("ptx: an unknown instruction is an error naming it and its line", "[ptx]") {
  std::string text = kernel("\tmov.u32 %r1, 0;\n\tfrobnicate.b32 %r2, %r1;\n\tret;");
  try {
    parseModule(text, "bad.ptx");
    FAIL("no error");
  } catch (const ParseError& e) {
    CHECK(std::string(e.what()) == "bad.ptx:15: unknown instruction 'frobnicate.b32' (outside the PTX subset of docs/ptx.md)");
  }
  // A known instruction with a modifier outside the subset is named whole.
  CHECK_THROWS_WITH(parseModule(kernel("\twmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1}, [%rd1];"), "t.ptx"),
                    Catch::Contains("unknown instruction 'wmma.load.a.sync.aligned.row.m16n16k16.f16'"));
  CHECK_THROWS_WITH(parseModule(kernel("\tbra $L_nowhere;"), "t.ptx"), Catch::Contains("unknown label or variable '$L_nowhere'"));
}

TEST_CASE("ptx: nvcc's module layout parses", "[ptx]") {
  Module m = parseModule(kernel("\tret;", ".global .align 4 .u32 counter = 7;\n"), "t.ptx");
  REQUIRE(m.functions.size() == 1);
  CHECK(m.functions[0].params.size() == 3);
  CHECK(m.functions[0].paramBytes == 20);
  REQUIRE(m.symbols.size() == 4);
  CHECK(m.symbols[0].name == "counter");
  CHECK(m.symbols[0].init == std::vector<uint8_t>{7, 0, 0, 0});
}

TEST_CASE("ptx: a guarded grid-wide copy with a tail", "[ptx]") {
  std::string body = std::string(kPrologue) +
                     "\tsetp.ge.s32 %p1, %r4, %r9;\n\t@%p1 bra $DONE;\n"
                     "\tld.global.u32 %r5, [%rd5];\n\tadd.s32 %r6, %r5, 100;\n\tst.global.u32 [%rd6], %r6;\n$DONE:\n\tret;";
  std::vector<uint32_t> in(70);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = i;
  Run r = run(kernel(body), 3, 32, in);
  CHECK(r.result.fault.empty());
  CHECK(r.result.race.empty());
  for (uint32_t i = 0; i < in.size(); ++i) CHECK(r.out[i] == i + 100);
}

TEST_CASE("ptx: memory outside every allocation is a fault naming the instruction", "[ptx]") {
  // No bounds check: the last block reads past `in`.
  std::string body = std::string(kPrologue) + "\tld.global.u32 %r5, [%rd5];\n\tst.global.u32 [%rd6], %r5;\n\tret;";
  Run r = run(kernel(body), 2, 32, std::vector<uint32_t>(40, 1));
  CHECK_THAT(r.result.fault, Catch::StartsWith("illegal memory access: thread (8,0,0) of block (1,0,0) reads 4 bytes at 0x"));
  CHECK_THAT(r.result.fault, Catch::EndsWith("in ld.global.u32 (line 26 of k): outside every allocation"));
}

TEST_CASE("ptx: shfl.sync.down sums a warp, and a partial mask must name present lanes", "[ptx]") {
  // out[g] = sum over the warp of in (lane 0 holds it), by a butterfly of shfl.down.
  std::string body = std::string(kPrologue) + "\tld.global.u32 %r5, [%rd5];\n";
  for (int o : {16, 8, 4, 2, 1})
    body += "\tshfl.sync.down.b32 %r6|%p2, %r5, " + std::to_string(o) + ", 31, -1;\n\tadd.s32 %r5, %r5, %r6;\n";
  body += "\tst.global.u32 [%rd6], %r5;\n\tret;";
  std::vector<uint32_t> in(64);
  for (uint32_t i = 0; i < 64; ++i) in[i] = i;
  Run r = run(kernel(body), 1, 64, in);
  CHECK(r.result.fault.empty());
  CHECK(r.result.barrier.empty());
  CHECK(r.out[0] == 496);          // 0 + ... + 31
  CHECK(r.out[32] == 1520);        // 32 + ... + 63
  CHECK(r.out[31] == 31 * 32);     // lane 31: every delta is out of range, its own value each time

  // Lanes 16..31 leave before the shuffle, whose mask still names them.
  std::string partial = std::string(kPrologue) + "\tld.global.u32 %r5, [%rd5];\n\tsetp.ge.u32 %p1, %r1, 16;\n"
                        "\t@%p1 bra $DONE;\n\tshfl.sync.bfly.b32 %r6, %r5, 1, 31, -1;\n\tst.global.u32 [%rd6], %r6;\n$DONE:\n\tret;";
  Run p = run(kernel(partial), 1, 32, in);
  CHECK_THAT(p.result.barrier, Catch::Contains("shfl.sync.bfly.b32 (line 29 of k) in block (0,0,0) warp 0 names lane 16 "
                                               "in its member mask 0xffffffff, but that lane was elsewhere in the code"));
  // With the mask of the lanes that are there (0xffff), it is fine: a butterfly within them.
  std::string ok = partial;
  ok.replace(ok.find("31, -1"), 6, "31, 65535");
  Run q = run(kernel(ok), 1, 32, in);
  CHECK(q.result.barrier.empty());
  CHECK(q.out[0] == 1);
  CHECK(q.out[1] == 0);
  CHECK(q.out[15] == 14);
}

TEST_CASE("ptx: bar.sync orders shared memory, and without it there is a race", "[ptx]") {
  // Each thread writes s[tid], then reads s[tid ^ 1] (its neighbour's).
  auto body = [](bool barrier) {
    return std::string(kPrologue) + "\tmov.u32 %r10, sm;\n\tshl.b32 %r11, %r1, 2;\n\tadd.s32 %r12, %r10, %r11;\n"
           "\tst.shared.u32 [%r12], %r1;\n" + (barrier ? "\tbar.sync 0;\n" : "") +
           "\txor.b32 %r13, %r1, 1;\n\tshl.b32 %r14, %r13, 2;\n\tadd.s32 %r15, %r10, %r14;\n"
           "\tld.shared.u32 %r16, [%r15];\n\tst.global.u32 [%rd6], %r16;\n\tret;";
  };
  const std::string shared = ".shared .align 4 .b8 sm[256];\n";
  std::vector<uint32_t> in(64, 0);
  Run good = run(kernel("\t" + shared + body(true)), 1, 64, in);
  CHECK(good.result.race.empty());
  CHECK(good.out[0] == 1);
  CHECK(good.out[1] == 0);
  CHECK(good.out[63] == 62);
  Run bad = run(kernel("\t" + shared + body(false)), 1, 64, in);
  CHECK_THAT(bad.result.race, Catch::StartsWith("data race on shared memory at 0x4: thread (0,0,0) of block (0,0,0) reads it "
                                                "in ld.shared.u32 (line 34 of k), and thread (1,0,0) of block (0,0,0) wrote it "
                                                "in st.shared.u32 (line 30) with no bar.sync between them"));
}

TEST_CASE("ptx: a barrier only some threads of a warp reach is reported", "[ptx]") {
  std::string body = std::string(kPrologue) + "\tsetp.ge.s32 %p1, %r4, %r9;\n\t@%p1 bra $DONE;\n\tbar.sync 0;\n"
                     "\tst.global.u32 [%rd6], %r4;\n$DONE:\n\tret;";
  Run r = run(kernel(body), 1, 64, std::vector<uint32_t>(40, 0));
  CHECK(r.result.barrier == "barrier divergence: bar.sync (line 28 of k) was reached by 8 of the 32 threads of warp 1 "
                            "of block (0,0,0); the other 24 had exited without reaching it");
  // Whole warps that leave before the barrier are legal.
  Run whole = run(kernel(body), 1, 64, std::vector<uint32_t>(32, 0));
  CHECK(whole.result.barrier.empty());
  CHECK(whole.out[31] == 31);
}

TEST_CASE("ptx: global memory written by two blocks races, atomics do not", "[ptx]") {
  std::string plain = std::string(kPrologue) + "\tld.global.u32 %r5, [%rd4];\n\tadd.s32 %r5, %r5, 1;\n"
                      "\tst.global.u32 [%rd4], %r5;\n\tret;";
  Run r = run(kernel(plain), 2, 1, std::vector<uint32_t>(1, 0));
  CHECK_THAT(r.result.race, Catch::Contains("(another block: nothing orders them)"));
  std::string atomic = std::string(kPrologue) + "\tatom.global.add.u32 %r5, [%rd4], 1;\n\tret;";
  std::vector<uint32_t> in(1, 0);
  Run a = run(kernel(atomic), 4, 32, in);
  CHECK(a.result.race.empty());
  CHECK(a.out[0] == 0xdeadbeef + 128);
}

TEST_CASE("ptx: rounding modes, conversions, comparisons and NaN", "[ptx]") {
  auto f = [](float x) {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    return uint64_t{u};
  };
  auto asF = [](uint64_t b) {
    float x;
    uint32_t u = static_cast<uint32_t>(b);
    std::memcpy(&x, &u, 4);
    return x;
  };
  Instr in;
  REQUIRE(decodeOpcode("add.rm.f32", in));
  float third = 1.0f / 3.0f;
  float down = asF(compute(in, f(1.0f), f(third), 0));
  REQUIRE(decodeOpcode("add.rp.f32", in = Instr()));
  float up = asF(compute(in, f(1.0f), f(third), 0));
  CHECK(up == std::nextafter(down, 2.0f));
  REQUIRE(decodeOpcode("cvt.rzi.s32.f32", in = Instr()));
  CHECK(asSigned(Type::S32, convert(in, f(-2.7f))) == -2);
  CHECK(convert(in, f(NAN)) == 0);
  CHECK(asSigned(Type::S32, convert(in, f(1e20f))) == INT32_MAX);  // float -> int saturates
  REQUIRE(decodeOpcode("cvt.rn.bf16.f32", in = Instr()));
  CHECK(convert(in, f(1.00390625f)) == 0x3f80);  // a tie: to even
  REQUIRE(decodeOpcode("setp.gtu.f32", in = Instr()));
  CHECK(compare(in, f(NAN), f(1.0f)));
  REQUIRE(decodeOpcode("setp.gt.f32", in = Instr()));
  CHECK_FALSE(compare(in, f(NAN), f(1.0f)));
  REQUIRE(decodeOpcode("max.f32", in = Instr()));
  CHECK(asF(compute(in, f(NAN), f(2.0f), 0)) == 2.0f);  // max drops a NaN operand
  REQUIRE(decodeOpcode("ex2.approx.ftz.f32", in = Instr()));
  CHECK(asF(compute(in, f(10.0f), 0, 0)) == 1024.0f);
  REQUIRE(decodeOpcode("mul.hi.u64", in = Instr()));
  CHECK(compute(in, ~uint64_t{0}, 2, 0) == 1);
  REQUIRE(decodeOpcode("mul.wide.s32", in = Instr()));
  CHECK(compute(in, 0xffffffffu, 3, 0) == static_cast<uint64_t>(-3));
}

TEST_CASE("ptx: vector loads and stores, register packing, local memory", "[ptx]") {
  // Thread g swaps the two words of its pair through local memory: out[2g] = in[2g+1], out[2g+1] = in[2g].
  std::string body = std::string(kPrologue) +
                     "\tshl.b32 %r20, %r4, 3;\n\tcvt.u64.u32 %rd20, %r20;\n\tadd.s64 %rd21, %rd3, %rd20;\n"
                     "\tadd.s64 %rd22, %rd4, %rd20;\n\tld.global.v2.u32 {%r21, %r22}, [%rd21];\n"
                     "\tmov.b64 %rd23, {%r22, %r21};\n\tmov.u64 %rd24, depot;\n\tcvta.local.u64 %rd25, %rd24;\n"
                     "\tst.u64 [%rd25], %rd23;\n\tld.local.v2.u32 {%r23, %r24}, [depot];\n"
                     "\tst.global.v2.u32 [%rd22], {%r23, %r24};\n\tret;";
  std::vector<uint32_t> in{10, 11, 20, 21, 30, 31, 40, 41};
  Run r = run(kernel("\t.local .align 8 .b8 depot[8];\n" + body), 1, 4, in);
  CHECK(r.result.fault.empty());
  CHECK(r.out == std::vector<uint32_t>{11, 10, 21, 20, 31, 30, 41, 40});
}
