#include "compiler/parse/parser.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "KContractLexer.h"
#include "KContractParser.h"
#include "antlr4-runtime.h"
#include "compiler/parse/locator.h"
#include "compiler/parse/parse_arena.h"
#include "compiler/parse/recovery.h"
#include "compiler/parse/runtime_speed.h"
#include "compiler/parse/syntax_errors.h"
#include "compiler/parse/transformer.h"

namespace kc::parse {

namespace {

// Rule nesting the parser accepts; deeper input is reported, never allowed to exhaust the stack.
// The depth is counted as the grammar with one rule per precedence level (before the
// left-recursive opExpr) nested its contexts, so the limit and the token where it is reported
// stay where they were: see oldDepth below.
constexpr size_t kMaxRuleDepth = 1200;  // about 80 nested parentheses
constexpr size_t kParseStackBytes = 256u << 20;
// The largest source file parsed (docs/language.md, "Limits"): the parse is linear in the
// input (about 4 s and 230 MB a MiB of declarations, measured): this bounds both.
constexpr size_t kMaxSourceBytes = 2u << 20;

struct TooDeep {
  antlr4::Token* at;
};

bool isNameToken(size_t type) {
  using P = KContractParser;
  return type == P::NAME || type == P::KW_SEEDS || type == P::KW_REPEATS || type == P::KW_DIMS || type == P::KW_VALUES ||
         type == P::KW_LAYOUTS || type == P::KW_CELLS || type == P::KW_PERTURB || type == P::KW_CASE || type == P::KW_LAYOUT ||
         type == P::KW_BACKEND || type == P::KW_FAILS || type == P::KW_ONLY || type == P::KW_WHEN || type == P::KW_WRONG ||
         type == P::KW_ERROR || type == P::KW_GROWS || type == P::KW_WITH || type == P::KW_DIFFERS || type == P::KW_RUN ||
         type == P::KW_TO || type == P::KW_IMPLEMENTS;
}

class GuardedParser : public KContractParser {
 public:
  explicit GuardedParser(antlr4::TokenStream* input) : KContractParser(input) {
    // setInterpreter deletes the generated simulator; the generated destructor deletes ours.
    setInterpreter(new ParserSimulator(this, *getInterpreter<antlr4::atn::ParserATNSimulator>()));
  }

  // Parser::enterRule, without its dynamic_cast of the parent (a ParserRuleContext, always).
  void enterRule(antlr4::ParserRuleContext* ctx, size_t state, size_t) override {
    open(ctx);
    reserveChildren(ctx);
    setState(state);
    _ctx = ctx;
    _ctx->start = _input->LT(1);
    if (_buildParseTrees && _ctx->parent) static_cast<antlr4::ParserRuleContext*>(_ctx->parent)->addChild(_ctx);
    if (!_parseListeners.empty()) triggerEnterRuleEvent();
  }
  // Parser::enterOuterAlt, likewise: a labelled alternative's context replaces the rule's.
  void enterOuterAlt(antlr4::ParserRuleContext* ctx, size_t alt) override {
    ctx->setAltNumber(alt);
    reserveChildren(ctx);
    if (_buildParseTrees && _ctx != ctx && _ctx->parent) {
      auto* parent = static_cast<antlr4::ParserRuleContext*>(_ctx->parent);
      parent->removeLastChild();
      parent->addChild(ctx);
    }
    _ctx = ctx;
  }
  // Entry to a left-recursive rule (opExpr).
  void enterRecursionRule(antlr4::ParserRuleContext* ctx, size_t state, size_t rule, int precedence) override {
    open(ctx);
    reserveChildren(ctx);
    KContractParser::enterRecursionRule(ctx, state, rule, precedence);
  }
  // The current context becomes the left operand of `ctx`; this runs before it is re-parented.
  void pushNewRecursionContext(antlr4::ParserRuleContext* ctx, size_t state, size_t rule) override {
    settle(ctx);
    reserveChildren(ctx);
    KContractParser::pushNewRecursionContext(ctx, state, rule);
  }
  void reset() override {
    open_.clear();
    KContractParser::reset();
  }

 private:
  // Room for three children from the start: the allocator's smallest block holds three
  // pointers anyway, and growing one child at a time would take three allocations.
  static void reserveChildren(antlr4::ParserRuleContext* ctx) {
    if (ctx->children.capacity() == 0) ctx->children.reserve(3);
  }
  // Makes `ctx` the top of the chain, in place of a sibling or of the context it replaces.
  void settle(antlr4::tree::ParseTree* ctx) {
    while (!open_.empty()) {
      antlr4::tree::ParseTree* top = open_.back().ctx;
      if (top == ctx) return;
      if (top->parent == ctx->parent) {  // the same rule at the same place: the same depth
        open_.back().ctx = ctx;
        return;
      }
      open_.pop_back();
    }
    // Not reached in practice: rebuild the chain from the root.
    std::vector<antlr4::tree::ParseTree*> chain;
    for (antlr4::tree::ParseTree* p = ctx; p; p = p->parent) chain.push_back(p);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
      open_.push_back(Open{*it, open_.empty() ? 1 : oldDepth(static_cast<antlr4::ParserRuleContext*>(*it))});
  }
  void open(antlr4::ParserRuleContext* ctx) {
    if (ctx->parent) settle(ctx->parent);
    else open_.clear();
    size_t depth = open_.empty() ? 1 : oldDepth(ctx);
    open_.push_back(Open{ctx, depth});
    if (depth + deepestAtEntry(ctx) > kMaxRuleDepth) throw TooDeep{getCurrentToken()};
  }

  // The depth the grammar with one rule per precedence level gave the context that `ctx`
  // stands for, from its parent's (the top of open_). That grammar had one rule per level,
  //   expr > quantifier > implication > disjunction > conjunction > comparison > additive
  //   > multiplicative > unary > power > postfix > primary > number | ident | callee | reducer
  // and an operand entered every level; opExpr stands for `unary` here.
  size_t oldDepth(antlr4::ParserRuleContext* ctx) const {
    using P = KContractParser;
    size_t parentDepth = open_.back().depth;
    auto* parent = static_cast<antlr4::ParserRuleContext*>(open_.back().ctx);
    size_t rule = ctx->getRuleIndex();
    switch (parent->getRuleIndex()) {
      case P::RuleExpr:
        if (rule == P::RuleOpExpr) return parentDepth + 8;  // expr > quantifier > implication ... > unary
        if (rule == P::RuleBinder) return parentDepth + 2;  // expr > quantifier > binder
        return parentDepth + 1;                             // quantifier > quantifier (the body)
      case P::RuleOpExpr: {
        if (rule == P::RuleExpr) {
          // postfix > expr (an index); primary > expr (parentheses, |e|, if, call arguments)
          for (antlr4::tree::ParseTree* c : parent->children)
            if (children::isToken(c) && children::symbol(c)->getType() == P::LBRACK) return parentDepth + 3;
          return parentDepth + 4;
        }
        if (rule == P::RuleBinder) return parentDepth + 4;  // primary > binder (a reduction)
        // An operand of an operator: the last child is the operator.
        const auto& kids = parent->children;
        if (kids.empty() || !children::isToken(kids.back())) return parentDepth;
        size_t op = children::symbol(kids.back())->getType();
        if (op == P::CARET) return parentDepth + 2;                       // power > unary
        if (op == P::ARROW) return parentDepth + 1;                       // implication > implication
        if (kids.size() == 1 && (op == P::MINUS || op == P::BANG)) return parentDepth + 1;  // unary > unary
        return parentDepth;  // e.g. additive > multiplicative, as for the left operand
      }
      default: return parentDepth + 1;
    }
  }

  // How much deeper than `ctx` itself that grammar went before the next token.
  size_t deepestAtEntry(antlr4::ParserRuleContext* ctx) {
    using P = KContractParser;
    size_t rule = ctx->getRuleIndex();
    if (rule == P::RuleExpr) return 1;  // expr > quantifier
    if (rule != P::RuleOpExpr) return 0;
    size_t la = _input->LA(1);
    if (la == P::MINUS || la == P::BANG) return 0;  // unary, a prefix operator
    // unary > power > postfix > primary, then the primary's first rule
    size_t extra = 3;
    if (la == P::INT || la == P::FLOAT || la == P::HEXFLOAT) return extra + 1;  // number
    bool reducer = la == P::KW_SUM || la == P::KW_PROD || la == P::KW_MAX || la == P::KW_MIN;
    bool call = _input->LA(2) == P::LPAREN || _input->LA(2) == P::DOT;  // f(…), std.ops.gelu(…)
    if (isNameToken(la)) return extra + (call ? 2 : 1);  // callee > ident, or ident
    if (reducer && call) {
      // reducer '(' binder ',' ...: a reduction (reducer); else a call (callee > reducer)
      size_t after = _input->LA(4);
      bool reduction = isNameToken(_input->LA(3)) && (after == P::COMMA || after == P::KW_IN);
      return extra + (reduction ? 1 : 2);
    }
    return extra;  // y*, '(', '|', 'if'
  }

  struct Open {
    antlr4::tree::ParseTree* ctx;
    size_t depth;  // as the grammar with one rule per precedence level counted it
  };
  std::vector<Open> open_;  // the chain of contexts from the root
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

// Runs `fn` on a new thread with a large stack (or here, when no thread can be made): ANTLR's
// recursive descent and prediction recurse with the nesting depth of the input.
void runOnNewThread(const std::function<void()>& fn) {
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

// A thread with a large stack that runs one job at a time for the thread that owns it:
// ANTLR's recursive descent and prediction recurse with the nesting depth of the input. It
// lives as long as its owner, so its arena and buffers serve every parse of that thread.
class LargeStackThread {
 public:
  LargeStackThread() {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kParseStackBytes);
    started_ = pthread_create(&thread_, &attr, &LargeStackThread::main, this) == 0;
    pthread_attr_destroy(&attr);
  }
  ~LargeStackThread() {
    if (!started_ || getpid() != pid_) return;  // a forked child has no such thread to join
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    pthread_join(thread_, nullptr);
  }
  LargeStackThread(const LargeStackThread&) = delete;
  LargeStackThread& operator=(const LargeStackThread&) = delete;

  void run(const std::function<void()>& fn) {
    if (!started_ || getpid() != pid_) {  // a forked child has no such thread
      runOnNewThread(fn);
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = &fn;
    wake_.notify_one();
    done_.wait(lock, [&] { return job_ == nullptr; });
  }

 private:
  static void* main(void* self) {
    auto* t = static_cast<LargeStackThread*>(self);
    std::unique_lock<std::mutex> lock(t->mutex_);
    for (;;) {
      t->wake_.wait(lock, [&] { return t->job_ || t->stop_; });
      if (!t->job_) return nullptr;
      lock.unlock();
      (*t->job_)();  // the jobs here catch every exception
      lock.lock();
      t->job_ = nullptr;
      t->done_.notify_one();
    }
  }

  pthread_t thread_{};
  pid_t pid_ = getpid();
  bool started_ = false;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void()>* job_ = nullptr;
  bool stop_ = false;
};

// The LargeStackThread of the calling thread. In a forked child it is never destroyed: the
// parent's worker was waiting on its condition variable at the fork, and destroying that
// condition variable in the child would wait for that waiter forever.
class LargeStackThreadOfThisThread {
 public:
  ~LargeStackThreadOfThisThread() {
    if (getpid() == pid_) delete thread_;
  }
  LargeStackThread& get() { return *thread_; }

 private:
  pid_t pid_ = getpid();
  LargeStackThread* thread_ = new LargeStackThread;
};

void runWithLargeStack(const std::function<void()>& fn) {
  static thread_local LargeStackThreadOfThisThread thread;
  thread.get().run(fn);
}

std::unique_ptr<ast::File> parseOnThisThread(uint32_t fileId, const SourceManager& sources, DiagnosticEngine& diags) {
  const SourceFile& source = sources.file(fileId);
  if (source.text().size() > kMaxSourceBytes) {
    SourceRange r;
    r.file = fileId;
    r.begin = source.posAt(0);
    r.end = source.posAt(0);
    diags.report(DiagCode::FileTooLarge, r,
                 "the file is " + std::to_string(source.text().size()) + " bytes; the parser accepts at most " +
                     std::to_string(kMaxSourceBytes) + " (2 MiB): split it into modules");
    return nullptr;
  }
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
  // Every token and parse context is made from `arena` and destroyed before `use` ends.
  static thread_local ParseArena arena;
  ParseArena::Use use(arena);
  SourceStream input(source.text());
  KContractLexer lexer(&input);
  lexer.setTokenFactory(ArenaTokenFactory::instance());
  lexer.setInterpreter(new LexerSimulator(&lexer, lexer.getATN(), KContractLexer::dfaCache(),
                                          lexer.getInterpreter<antlr4::atn::LexerATNSimulator>()->getSharedContextCache()));
  lexer.removeErrorListeners();
  TokenBuffer tokens(&lexer);
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
  std::unique_ptr<ast::File> file = Transformer(locator, tokens, diags).file(tree);
  file->fileId = fileId;
  for (size_t i = 0; i < tokens.size(); ++i)
    if (antlr4::Token* t = tokens.get(i); t->getChannel() == 2) file->comments.push_back(ast::Comment{normalizeComment(t->getText()), locator.range(t)});
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
