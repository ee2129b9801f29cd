#include "compiler/parse/parser.h"

#include <pthread.h>

#include <functional>

#include "KContractLexer.h"
#include "KContractParser.h"
#include "antlr4-runtime.h"
#include "compiler/parse/locator.h"
#include "compiler/parse/recovery.h"
#include "compiler/parse/syntax_errors.h"
#include "compiler/parse/transformer.h"

namespace kc::parse {

namespace {

// Rule nesting the parser accepts; deeper input is reported, never allowed to exhaust the stack.
constexpr size_t kMaxRuleDepth = 1200;  // about 80 nested parentheses
constexpr size_t kParseStackBytes = 256u << 20;

struct TooDeep {
  antlr4::Token* at;
};

class GuardedParser : public KContractParser {
 public:
  using KContractParser::KContractParser;
  // exitRule is not virtual, so the depth is read from the context chain (cheap at the
  // depths real contracts reach; bounded by the limit for hostile input).
  void enterRule(antlr4::ParserRuleContext* ctx, size_t state, size_t rule) override {
    if (static_cast<size_t>(ctx->depth()) > kMaxRuleDepth) throw TooDeep{getCurrentToken()};
    KContractParser::enterRule(ctx, state, rule);
  }
};

// Returns the byte offset of the first invalid UTF-8 sequence, or npos.
size_t firstInvalidUtf8(const std::string& s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) return i;
    uint32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += len;
  }
  return std::string::npos;
}

// A comment as the formatter writes it: no carriage returns, no blanks at line ends.
std::string normalizeComment(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\r') continue;
    if (c == '\n')
      while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
    out += c;
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
  return out;
}

// Runs `fn` on a thread with a large stack: ANTLR's recursive descent and prediction
// recurse with the nesting depth of the input.
void runWithLargeStack(const std::function<void()>& fn) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kParseStackBytes);
  pthread_t thread;
  auto trampoline = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  if (pthread_create(&thread, &attr, trampoline, const_cast<std::function<void()>*>(&fn)) != 0) {
    pthread_attr_destroy(&attr);
    fn();
    return;
  }
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

std::unique_ptr<ast::File> parseOnThisThread(uint32_t fileId, const SourceManager& sources, DiagnosticEngine& diags) {
  const SourceFile& source = sources.file(fileId);
  size_t bad = firstInvalidUtf8(source.text());
  if (bad != std::string::npos) {
    SourceRange r;
    r.file = fileId;
    r.begin = source.posAt(static_cast<uint32_t>(bad));
    r.end = source.posAt(static_cast<uint32_t>(bad + 1));
    diags.report(DiagCode::InvalidEncoding, r, "the file is not valid UTF-8 (bad byte at offset " + std::to_string(bad) + ")");
    return nullptr;
  }

  Locator locator(fileId, source);
  antlr4::ANTLRInputStream input(source.text());
  KContractLexer lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream tokens(&lexer);
  SyntaxErrorListener listener(locator, diags);
  if (!listener.reportLexicalErrors(tokens)) return nullptr;

  // Two stages, as ANTLR recommends: the fast SLL prediction (cached in the DFA) with no
  // recovery, which succeeds on every well-formed file; on a syntax error, a second pass
  // with full LL prediction, our recovery and our messages.
  GuardedParser parser(&tokens);
  parser.removeErrorListeners();
  KContractParser::FileContext* tree = nullptr;
  try {
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    try {
      tree = parser.file();
    } catch (const antlr4::ParseCancellationException&) {
      tree = nullptr;
    }
    if (!tree) {
      tokens.seek(0);
      parser.reset();
      parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::LL);
      parser.addErrorListener(&listener);
      parser.setErrorHandler(std::make_shared<StatementRecovery>());
      tree = parser.file();
    }
  } catch (const TooDeep& e) {
    diags.report(DiagCode::TooDeep, locator.range(e.at),
                 "nesting is too deep here; split the expression or block into smaller parts");
    return nullptr;
  }
  if (parser.sawUnknownItem) listener.reportUnknownItems(tree);
  if (listener.errors() > 0 || parser.getNumberOfSyntaxErrors() > 0) return nullptr;

  size_t before = diags.errorCount();
  std::unique_ptr<ast::File> file = Transformer(locator, diags).file(tree);
  file->fileId = fileId;
  for (antlr4::Token* t : tokens.getTokens())
    if (t->getChannel() == 2) file->comments.push_back(ast::Comment{normalizeComment(t->getText()), locator.range(t)});
  if (diags.errorCount() > before) return nullptr;
  return file;
}

}  // namespace

std::unique_ptr<ast::File> parseFile(uint32_t fileId, const SourceManager& sources, DiagnosticEngine& diags) {
  std::unique_ptr<ast::File> result;
  std::exception_ptr failure;
  runWithLargeStack([&] {
    try {
      result = parseOnThisThread(fileId, sources, diags);
    } catch (...) {
      failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
  return result;
}

}  // namespace kc::parse
