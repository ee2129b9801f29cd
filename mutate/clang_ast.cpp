// libclang's room: parses a kernel file and converts its cursors into mutate/ast.h's tree.
// No clang-c type leaves this file. libclang (and the LLVM library under it, ~140 MB) is not
// linked: it is loaded with dlopen the first time a kernel is parsed, so only `kcontract
// mutate` needs it, and every other command starts as fast as before.
#include <clang-c/Index.h>
#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <filesystem>
#include <functional>
#include <map>

#include "backends/kernel_library.h"
#include "mutate/ast.h"

namespace kc::mutate {

namespace fs = std::filesystem;

namespace {

// The libclang functions used here, looked up in the library once.
#define KC_CLANG_FUNCTIONS(X) \
  X(clang_File_isEqual) X(clang_Location_isFromMainFile) X(clang_Type_getSizeOf) X(clang_createIndex) X(clang_disposeDiagnostic) X(clang_disposeIndex) X(clang_disposeString) X(clang_disposeTranslationUnit) X(clang_getArrayElementType) X(clang_getCString) X(clang_getCanonicalType) X(clang_getCursorExtent) X(clang_getCursorKind) X(clang_getCursorLocation) X(clang_getCursorReferenced) X(clang_getCursorSpelling) X(clang_getCursorType) X(clang_getDiagnostic) X(clang_getDiagnosticLocation) X(clang_getDiagnosticSeverity) X(clang_getDiagnosticSpelling) X(clang_getExpansionLocation) X(clang_getFileName) X(clang_getIncludedFile) X(clang_getLocationForOffset) X(clang_getNumDiagnostics) X(clang_getRangeEnd) X(clang_getRangeStart) X(clang_getSpellingLocation) X(clang_getTranslationUnitCursor) X(clang_getTypeSpelling) X(clang_isAttribute) X(clang_isCursorDefinition) X(clang_parseTranslationUnit2) X(clang_visitChildren)

struct ClangApi {
#define KC_FIELD(f) decltype(&::f) f = nullptr;
  KC_CLANG_FUNCTIONS(KC_FIELD)
#undef KC_FIELD
};

// KC_LIBCLANG (a path), else Debian's sonames, else the library found at configure time.
const ClangApi& clangApi() {
  static ClangApi api;
  static std::string error;
  static bool loaded = [] {
    std::vector<std::string> names;
    if (const char* env = std::getenv("KC_LIBCLANG"); env && *env) names.push_back(env);
    names.insert(names.end(), {"libclang-14.so.13", "libclang-14.so.1", "libclang.so.1", KC_LIBCLANG_PATH});
    void* lib = nullptr;
    for (const auto& n : names)
      if ((lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    if (!lib) {
      error = "kcontract mutate needs libclang (Debian: libclang1-14 and libclang-common-14-dev; or KC_LIBCLANG=PATH): " +
              std::string(dlerror());
      return false;
    }
#define KC_LOOKUP(f)                                                  \
  api.f = reinterpret_cast<decltype(&::f)>(dlsym(lib, #f));           \
  if (!api.f) {                                                       \
    error = "the libclang loaded has no " #f " (libclang 14 or later)"; \
    return false;                                                     \
  }
    KC_CLANG_FUNCTIONS(KC_LOOKUP)
#undef KC_LOOKUP
    return true;
  }();
  if (!loaded) throw ParseError(error);
  return api;
}

// Below, every libclang call goes through the table.
#define clang_File_isEqual clangApi().clang_File_isEqual
#define clang_Location_isFromMainFile clangApi().clang_Location_isFromMainFile
#define clang_Type_getSizeOf clangApi().clang_Type_getSizeOf
#define clang_createIndex clangApi().clang_createIndex
#define clang_disposeDiagnostic clangApi().clang_disposeDiagnostic
#define clang_disposeIndex clangApi().clang_disposeIndex
#define clang_disposeString clangApi().clang_disposeString
#define clang_disposeTranslationUnit clangApi().clang_disposeTranslationUnit
#define clang_getArrayElementType clangApi().clang_getArrayElementType
#define clang_getCString clangApi().clang_getCString
#define clang_getCanonicalType clangApi().clang_getCanonicalType
#define clang_getCursorExtent clangApi().clang_getCursorExtent
#define clang_getCursorKind clangApi().clang_getCursorKind
#define clang_getCursorLocation clangApi().clang_getCursorLocation
#define clang_getCursorReferenced clangApi().clang_getCursorReferenced
#define clang_getCursorSpelling clangApi().clang_getCursorSpelling
#define clang_getCursorType clangApi().clang_getCursorType
#define clang_getDiagnostic clangApi().clang_getDiagnostic
#define clang_getDiagnosticLocation clangApi().clang_getDiagnosticLocation
#define clang_getDiagnosticSeverity clangApi().clang_getDiagnosticSeverity
#define clang_getDiagnosticSpelling clangApi().clang_getDiagnosticSpelling
#define clang_getExpansionLocation clangApi().clang_getExpansionLocation
#define clang_getFileName clangApi().clang_getFileName
#define clang_getIncludedFile clangApi().clang_getIncludedFile
#define clang_getLocationForOffset clangApi().clang_getLocationForOffset
#define clang_getNumDiagnostics clangApi().clang_getNumDiagnostics
#define clang_getRangeEnd clangApi().clang_getRangeEnd
#define clang_getRangeStart clangApi().clang_getRangeStart
#define clang_getSpellingLocation clangApi().clang_getSpellingLocation
#define clang_getTranslationUnitCursor clangApi().clang_getTranslationUnitCursor
#define clang_getTypeSpelling clangApi().clang_getTypeSpelling
#define clang_isAttribute clangApi().clang_isAttribute
#define clang_isCursorDefinition clangApi().clang_isCursorDefinition
#define clang_parseTranslationUnit2 clangApi().clang_parseTranslationUnit2
#define clang_visitChildren clangApi().clang_visitChildren


std::string take(CXString s) {
  const char* c = clang_getCString(s);
  std::string out = c ? c : "";
  clang_disposeString(s);
  return out;
}

// The byte offset of `loc` in the main file as written (its expansion), and whether its
// spelling is elsewhere (inside a macro's definition).
// (A location inside a macro expansion is not "from the main file" to libclang; its
// expansion is.)
bool mainOffset(CXTranslationUnit tu, CXSourceLocation loc, size_t& offset, bool& macro) {
  CXFile ef, sf;
  unsigned el, ec, eo, sl, sc, so;
  clang_getExpansionLocation(loc, &ef, &el, &ec, &eo);
  if (!ef) return false;
  CXSourceLocation expansion = clang_getLocationForOffset(tu, ef, eo);
  if (!clang_Location_isFromMainFile(expansion)) return false;
  clang_getSpellingLocation(loc, &sf, &sl, &sc, &so);
  offset = eo;
  macro = !clang_File_isEqual(ef, sf) || eo != so;
  return true;
}

void classify(CXType t, Node& n) {
  n.type = take(clang_getTypeSpelling(t));
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray) c = clang_getCanonicalType(clang_getArrayElementType(c));
  switch (c.kind) {
    case CXType_Float: case CXType_Double: case CXType_LongDouble: case CXType_Half: case CXType_Float16:
#if CINDEX_VERSION_MINOR >= 59
    case CXType_BFloat16:
#endif
      n.typeClass = TypeClass::Floating;
      n.typeBits = static_cast<int>(clang_Type_getSizeOf(c) * 8);
      break;
    case CXType_Bool: case CXType_Char_U: case CXType_UChar: case CXType_UShort: case CXType_UInt: case CXType_ULong:
    case CXType_ULongLong: case CXType_Char_S: case CXType_SChar: case CXType_Short: case CXType_Int: case CXType_Long:
    case CXType_LongLong: case CXType_Enum:
      n.typeClass = TypeClass::Integer;
      n.typeBits = static_cast<int>(clang_Type_getSizeOf(c) * 8);
      break;
    case CXType_Pointer: n.typeClass = TypeClass::Pointer; break;
    case CXType_Invalid: n.typeClass = TypeClass::None; break;
    default: n.typeClass = TypeClass::Other; break;
  }
}

NodeKind kindOf(CXCursorKind k) {
  switch (k) {
    case CXCursor_FunctionDecl: case CXCursor_CXXMethod: case CXCursor_FunctionTemplate: return NodeKind::Function;
    case CXCursor_VarDecl: return NodeKind::VarDecl;
    case CXCursor_ParmDecl: return NodeKind::ParmDecl;
    case CXCursor_BinaryOperator: return NodeKind::BinaryOp;
    case CXCursor_CompoundAssignOperator: return NodeKind::CompoundAssign;
    case CXCursor_UnaryOperator: return NodeKind::UnaryOp;
    case CXCursor_ConditionalOperator: return NodeKind::Conditional;
    case CXCursor_CallExpr: return NodeKind::Call;
    case CXCursor_CStyleCastExpr: return NodeKind::CStyleCast;
    case CXCursor_ArraySubscriptExpr: return NodeKind::Subscript;
    case CXCursor_IfStmt: return NodeKind::If;
    case CXCursor_ForStmt: return NodeKind::For;
    case CXCursor_DeclRefExpr: return NodeKind::DeclRef;
    // A name in a template that still names several functions or templates (`relu<T>` launched
    // from a template, `load(p)` with overloads): a reference to a function of that name.
    case CXCursor_OverloadedDeclRef: return NodeKind::DeclRef;
    case CXCursor_MemberRefExpr: return NodeKind::Member;
    case CXCursor_FloatingLiteral: return NodeKind::FloatLiteral;
    case CXCursor_IntegerLiteral: return NodeKind::IntLiteral;
    case CXCursor_ParenExpr: return NodeKind::Paren;
    case CXCursor_CompoundStmt: return NodeKind::Compound;
    case CXCursor_DeclStmt: return NodeKind::DeclStmt;
    case CXCursor_ReturnStmt: return NodeKind::Return;
    default: return NodeKind::Other;
  }
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The operator between two operands: the text between them, trimmed (empty when a comment
// or anything else sits there).
std::string between(const std::string& text, size_t from, size_t to, size_t& at) {
  if (from > to || to > text.size()) return "";
  while (from < to && isSpace(text[from])) ++from;
  while (to > from && isSpace(text[to - 1])) --to;
  at = from;
  std::string op = text.substr(from, to - from);
  for (char c : op)
    if (!std::strchr("+-*/%<>=!&|^", c)) return "";
  return op;
}

// The type keyword of a declaration: the last of the known scalar type words between the
// declaration's start and its name.
void findTypeWord(const std::string& text, Node& n, size_t nameAt) {
  static const char* words[] = {"float", "double", "_Float16", "half", "int64_t", "int32_t", "long", "size_t",
                                "ptrdiff_t", "int", "unsigned", "__half", "__nv_bfloat16"};
  size_t best = std::string::npos, bestLen = 0;
  for (const char* w : words) {
    std::string word = w;
    for (size_t at = text.find(word, n.begin); at != std::string::npos && at + word.size() <= nameAt;
         at = text.find(word, at + 1)) {
      bool left = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
      char r = text[at + word.size()];
      bool right = !(std::isalnum(static_cast<unsigned char>(r)) || r == '_');
      if (left && right && (best == std::string::npos || at > best)) {
        best = at;
        bestLen = word.size();
      }
    }
  }
  if (best != std::string::npos) {
    n.typeBegin = best;
    n.typeEnd = best + bestLen;
  }
}

// The parts of a for statement: the children split by the header's two semicolons.
void forParts(const std::string& text, Node& n) {
  size_t open = text.find('(', n.begin);
  if (open == std::string::npos) return;
  int depth = 0;
  size_t semi[2] = {0, 0}, close = 0;
  int found = 0;
  for (size_t i = open; i < n.end; ++i) {
    char c = text[i];
    if (c == '(') ++depth;
    else if (c == ')' && --depth == 0) {
      close = i;
      break;
    } else if (c == ';' && depth == 1 && found < 2) semi[found++] = i;
  }
  if (found < 2 || !close) return;
  for (const auto& ch : n.children) {
    // (A declaration's range takes in its semicolon.)
    if (ch->begin < semi[0]) n.forInit = ch.get();
    else if (ch->begin > semi[0] && ch->begin < semi[1]) n.forCond = ch.get();
    else if (ch->begin > semi[1] && ch->begin < close) n.forInc = ch.get();
    else if (ch->begin > close) n.forBody = ch.get();
  }
}

struct Converter {
  KernelAst& ast;
  CXTranslationUnit tu;
  std::map<std::string, bool> definedHere;  // functions with a body in the main file

  std::unique_ptr<Node> convert(CXCursor c, const Node* parent) {
    auto n = std::make_unique<Node>();
    n->kind = kindOf(clang_getCursorKind(c));
    n->parent = parent;
    CXSourceRange r = clang_getCursorExtent(c);
    bool m1 = false, m2 = false;
    if (!mainOffset(tu, clang_getRangeStart(r), n->begin, m1) || !mainOffset(tu, clang_getRangeEnd(r), n->end, m2)) n->macro = true;
    n->macro = n->macro || m1 || m2 || n->end < n->begin || n->end > ast.text.size();
    if (n->macro) n->end = std::max(n->begin, std::min(n->end, ast.text.size()));
    classify(clang_getCursorType(c), *n);
    switch (n->kind) {
      case NodeKind::Function: case NodeKind::VarDecl: case NodeKind::ParmDecl: case NodeKind::Call: case NodeKind::Member:
        n->name = take(clang_getCursorSpelling(c));
        break;
      case NodeKind::DeclRef: {
        n->name = take(clang_getCursorSpelling(c));
        CXCursor to = clang_getCursorReferenced(c);
        CXCursorKind k = clang_getCursorKind(to);
        n->refersToFunction = k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate ||
                              clang_getCursorKind(c) == CXCursor_OverloadedDeclRef;
        break;
      }
      default: break;
    }
    if (n->kind == NodeKind::VarDecl || n->kind == NodeKind::ParmDecl) {
      classify(clang_getCursorType(c), *n);
      size_t nameAt = 0;
      bool m = false;
      if (mainOffset(tu, clang_getCursorLocation(c), nameAt, m) && !m) findTypeWord(ast.text, *n, nameAt);
    }
    if (n->kind == NodeKind::CStyleCast) classify(clang_getCursorType(c), *n);
    struct Ctx {
      Converter* self;
      Node* node;
    } ctx{this, n.get()};
    clang_visitChildren(
        c,
        [](CXCursor child, CXCursor, CXClientData data) {
          auto* x = static_cast<Ctx*>(data);
          CXCursorKind k = clang_getCursorKind(child);
          // Type references and attributes are not code.
          if (k == CXCursor_TypeRef || clang_isAttribute(k)) return CXChildVisit_Continue;
          x->node->children.push_back(x->self->convert(child, x->node));
          return CXChildVisit_Continue;
        },
        &ctx);
    if ((n->kind == NodeKind::BinaryOp || n->kind == NodeKind::CompoundAssign) && n->children.size() == 2 && !n->macro)
      n->op = between(ast.text, n->children[0]->end, n->children[1]->begin, n->opBegin);
    if (n->kind == NodeKind::UnaryOp && !n->macro) {
      std::string t = textOf(ast, *n);
      for (const char* o : {"++", "--", "!", "-", "~", "&", "*", "+"})
        if (t.rfind(o, 0) == 0 || (t.size() >= 2 && t.compare(t.size() - 2, 2, o) == 0)) {
          n->op = o;
          break;
        }
    }
    if (n->kind == NodeKind::If) n->hasElse = n->children.size() >= 3;
    if (n->kind == NodeKind::For && !n->macro) forParts(ast.text, *n);
    return n;
  }
};

// Without a CUDA toolkit, what its headers would declare that kernels use most.
constexpr const char* kCudaPreludeName = "/kcontract-cuda-prelude.h";
constexpr const char* kCudaPrelude =
    "#define __global__ __attribute__((global))\n#define __device__ __attribute__((device))\n"
    "#define __host__ __attribute__((host))\n#define __shared__ __attribute__((shared))\n"
    "#define __constant__ __attribute__((constant))\n#define __forceinline__ inline\n"
    "struct kc_uint3 { unsigned x, y, z; };\n"
    "extern const __device__ kc_uint3 threadIdx, blockIdx, blockDim, gridDim;\n"
    "__device__ void __syncthreads(); __device__ void __syncwarp(unsigned = 0xffffffffu);\n"
    "__device__ float atomicAdd(float*, float); __device__ double atomicAdd(double*, double);\n"
    "__device__ int atomicAdd(int*, int);\n";

// Empty stand-ins for the texture headers clang 14's CUDA wrapper includes and CUDA 12 removed
// (given to libclang as unsaved files: nothing is written to disk).
constexpr const char* kCudaStubDir = "/kcontract-cuda-stubs";
constexpr const char* kCudaStubs[] = {"/kcontract-cuda-stubs/texture_fetch_functions.h",
                                      "/kcontract-cuda-stubs/texture_indirect_functions.h"};

std::vector<std::string> languageArgs(Language l) {
  switch (l) {
    // libclang 14 does not know _Float16 on x86-64 (GCC, which builds host kernels, does):
    // parsed as clang's storage-only half, a type of the same width.
    case Language::C: return {"-x", "c", "-std=gnu11", "-D_Float16=__fp16"};
    case Language::Cpp: return {"-x", "c++", "-std=gnu++17", "-D_Float16=__fp16"};
    case Language::OpenCL: return {"-x", "cl", "-cl-std=CL2.0", "-Xclang", "-finclude-default-header"};
    case Language::Cuda: {
      std::vector<std::string> a = {"-x", "cuda", "--cuda-host-only", "-nocudalib", "-std=c++17"};
      const char* home = std::getenv("CUDA_HOME");
      std::string cuda = home && *home ? home : "/usr/local/cuda";
      if (fs::exists(cuda + "/include/cuda_runtime.h")) {
        // With a toolkit: clang's own CUDA mode (its runtime wrapper includes the toolkit's
        // headers as nvcc would, so bf16/fp16 conversions, shuffles, atomics and math are
        // declared for device code, and <<<>>> launches resolve). Its wrapper still includes
        // two texture headers CUDA 12 removed: empty stand-ins (kCudaStubs) are found first,
        // and its texture intrinsics header is skipped by its include guard.
        a.push_back("--cuda-path=" + cuda);
        a.push_back("-isystem");
        a.push_back(kCudaStubDir);
        a.push_back("-D__CLANG_CUDA_TEXTURE_INTRINSICS_H__");
        a.push_back("-Wno-unknown-cuda-version");
        return a;
      }
      // clang 14's CUDA wrapper headers need texture headers CUDA 12 removed: without them,
      // the few names kernels use come from a prelude, and the toolkit's own headers (for
      // cuda_bf16.h and the like) are searched as system headers.
      a.push_back("-nocudainc");
      a.push_back("-include");
      a.push_back(kCudaPreludeName);
      // (A kernel calling the toolkit's bf16/fp16 device functions does not parse this way:
      // they are declared only for nvcc or clang's wrappers. docs/mutate.md, Languages.)
      if (fs::is_directory(cuda + "/include")) a.push_back("-isystem" + cuda + "/include");
      // clang 14's texture intrinsics header needs the texture references CUDA 12 removed:
      // skipped (nothing of it is a kernel's own code), by its include guard.
      a.push_back("-D__CLANG_CUDA_TEXTURE_INTRINSICS_H__");
      a.push_back("-Wno-unknown-cuda-version");
      return a;
    }
  }
  return {};
}

}  // namespace

const char* languageName(Language l) {
  switch (l) {
    case Language::C: return "C";
    case Language::Cpp: return "C++";
    case Language::Cuda: return "CUDA";
    case Language::OpenCL: return "OpenCL";
  }
  return "?";
}

bool languageOf(const std::string& path, Language& out) {
  std::string ext = fs::path(path).extension().string();
  if (ext == ".c") out = Language::C;
  else if (ext == ".cpp" || ext == ".cc" || ext == ".cxx") out = Language::Cpp;
  else if (ext == ".cu") out = Language::Cuda;
  else if (ext == ".cl") out = Language::OpenCL;
  else return false;
  return true;
}

const Node* KernelAst::function(const std::string& name) const {
  for (const auto& f : functions)
    if (f->name == name) return f.get();
  return nullptr;
}

void lineColumn(const std::string& text, size_t offset, int& line, int& column) {
  line = 1;
  column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
}

KernelAst parseKernel(const std::string& path, const std::vector<std::string>& includeDirs) {
  KernelAst ast;
  ast.path = path;
  if (!languageOf(path, ast.language))
    throw ParseError(path + ": not a kernel source kcontract mutate can parse (.c, .cpp, .cu or .cl)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path + ": cannot read the kernel source");
  ast.text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());

  std::vector<std::string> args = languageArgs(ast.language);
  args.push_back("-I" + backend::abiIncludeDir());
  for (const auto& d : includeDirs) args.push_back("-I" + d);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());

  CXIndex index = clang_createIndex(0, 0);
  CXTranslationUnit tu = nullptr;
  std::vector<CXUnsavedFile> unsaved = {{kCudaPreludeName, kCudaPrelude, static_cast<unsigned long>(std::strlen(kCudaPrelude))}};
  for (const char* stub : kCudaStubs) unsaved.push_back({stub, "", 0});
  CXErrorCode rc = clang_parseTranslationUnit2(index, path.c_str(), argv.data(), static_cast<int>(argv.size()), unsaved.data(),
                                               static_cast<unsigned>(unsaved.size()),
                                               CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing, &tu);
  if (rc != CXError_Success || !tu) {
    clang_disposeIndex(index);
    throw ParseError(path + ": libclang could not parse the file (error " + std::to_string(static_cast<int>(rc)) + ")");
  }
  std::string firstError;
  for (unsigned k = 0, n = clang_getNumDiagnostics(tu); k < n && firstError.empty(); ++k) {
    CXDiagnostic d = clang_getDiagnostic(tu, k);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXFile file;
      unsigned line = 0, column = 0, offset = 0;
      clang_getSpellingLocation(clang_getDiagnosticLocation(d), &file, &line, &column, &offset);
      std::string where = file ? take(clang_getFileName(file)) : path;
      if (file && clang_Location_isFromMainFile(clang_getDiagnosticLocation(d))) where = path;
      firstError = where + ":" + std::to_string(line) + ":" + std::to_string(column) + ": error: " +
                   take(clang_getDiagnosticSpelling(d));
    }
    clang_disposeDiagnostic(d);
  }
  if (!firstError.empty()) {
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    throw ParseError(firstError);
  }

  Converter conv{ast, tu, {}};
  struct Ctx {
    Converter* conv;
    KernelAst* ast;
    CXTranslationUnit tu;
  } ctx{&conv, &ast, tu};
  clang_visitChildren(
      clang_getTranslationUnitCursor(tu),
      [](CXCursor c, CXCursor, CXClientData data) {
        auto* x = static_cast<Ctx*>(data);
        if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
        CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_InclusionDirective) {
          CXFile f = clang_getIncludedFile(c);
          CXSourceRange r = clang_getCursorExtent(c);
          size_t b = 0, e = 0;
          bool m = false;
          if (f && mainOffset(x->tu, clang_getRangeStart(r), b, m) && mainOffset(x->tu, clang_getRangeEnd(r), e, m)) {
            size_t q1 = x->ast->text.find('"', b);
            size_t q2 = q1 == std::string::npos ? q1 : x->ast->text.find('"', q1 + 1);
            if (q2 != std::string::npos && q2 < e + 1)
              x->ast->includes.push_back({q1, q2 + 1, fs::absolute(take(clang_getFileName(f))).lexically_normal().string()});
          }
          return CXChildVisit_Continue;
        }
        bool function = k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_FunctionTemplate;
        if (function && clang_isCursorDefinition(c)) x->ast->functions.push_back(x->conv->convert(c, nullptr));
        // extern "C" { ... } and extern "C" before one definition: LinkageSpec, or UnexposedDecl
        // in libclang 14 for a CUDA translation unit.
        else if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec || k == CXCursor_UnexposedDecl) return CXChildVisit_Recurse;
        return CXChildVisit_Continue;
      },
      &ctx);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(index);
  return ast;
}

std::vector<const Node*> reachableFunctions(const KernelAst& ast, const std::string& entry) {
  std::vector<const Node*> out;
  const Node* first = ast.function(entry);
  if (!first) return out;
  out.push_back(first);
  for (size_t k = 0; k < out.size(); ++k) {
    std::function<void(const Node&)> walk = [&](const Node& n) {
      std::string callee = n.kind == NodeKind::Call ? n.name : (n.kind == NodeKind::DeclRef && n.refersToFunction ? n.name : "");
      if (!callee.empty())
        if (const Node* f = ast.function(callee); f && std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
      for (const auto& c : n.children) walk(*c);
    };
    walk(*out[k]);
  }
  return out;
}

}  // namespace kc::mutate
