#pragma once
// Pieces of the ANTLR 4.9 C++ runtime specialised for this grammar, for speed only: each
// behaves as the runtime class it derives from (the parse, its tree and its messages are
// the same). Internal to the parse step; included by parser.cpp alone.
//
//  - SourceStream: the char stream, decoded in one pass (ANTLRInputStream::load grows its
//    UTF-32 string as it goes).
//  - TokenBuffer: the token stream, without BufferedTokenStream::fetch's dynamic_cast per token.
//  - LexerSimulator, ParserSimulator: DFA edge lookups without a lock. The runtime takes a
//    reader lock (four mutex operations) per step of every DFA walk, for the lexer per
//    character. Edges, once added to a DFA, never change; the simulators keep the ones they
//    have found in tables of atomic pointers, shared by all lexers and parsers of the process.
//  - ParserSimulator also decides the operator loop of opExpr by one token (OperatorLoop).
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "KContractParser.h"
#include "antlr4-runtime.h"

namespace kc::parse {
// An anonymous namespace: this header belongs to parser.cpp alone, and types with internal
// linkage make the generated code's dynamic_cast of the simulator a pointer comparison.
namespace {

// ANTLRInputStream holding `utf8` (valid UTF-8, checked before) as ANTLRInputStream::load
// would: without a leading byte-order mark, one code point per element.
// The buffer is kept for the next parse on this thread.
class SourceStream : public antlr4::ANTLRInputStream {
 public:
  explicit SourceStream(const std::string& utf8) {
    _data.swap(spare());
    _data.clear();
    size_t i = utf8.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    _data.reserve(utf8.size() - i);
    while (i < utf8.size()) {
      auto c = static_cast<unsigned char>(utf8[i]);
      size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      char32_t cp = len == 1 ? c : c & (0x7F >> len);
      for (size_t k = 1; k < len && i + k < utf8.size(); ++k) cp = (cp << 6) | (utf8[i + k] & 0x3F);
      _data.push_back(cp);
      i += len;
    }
    p = 0;
  }
  ~SourceStream() override { spare().swap(_data); }

 private:
  static std::u32string& spare() {
    static thread_local std::u32string buffer;
    return buffer;
  }
};

// CommonTokenStream whose fetch sets each token's index without a dynamic_cast: every token
// of KContractLexer is a CommonToken (from ArenaTokenFactory). Its vector is kept for the next
// parse on this thread (growing it token by token costs the allocator dearly).
class TokenBuffer : public antlr4::CommonTokenStream {
 public:
  explicit TokenBuffer(antlr4::TokenSource* source) : CommonTokenStream(source) {
    _tokens.swap(spare());
    _tokens.clear();
  }
  ~TokenBuffer() override {
    _tokens.clear();
    if (_tokens.capacity() <= (1u << 20)) spare().swap(_tokens);
  }

 protected:
  size_t fetch(size_t n) override {
    if (_fetchedEOF) return 0;
    size_t i = 0;
    while (i < n) {
      std::unique_ptr<antlr4::Token> t(_tokenSource->nextToken());
      static_cast<antlr4::CommonToken*>(t.get())->setTokenIndex(_tokens.size());
      _tokens.push_back(std::move(t));
      ++i;
      if (_tokens.back()->getType() == antlr4::Token::EOF) {
        _fetchedEOF = true;
        break;
      }
    }
    return i;
  }

 private:
  static std::vector<std::unique_ptr<antlr4::Token>>& spare() {
    static thread_local std::vector<std::unique_ptr<antlr4::Token>> tokens;
    return tokens;
  }
};

// DFA edges (state number x symbol -> target state) of one DFA, read and written without a
// lock. Rows are allocated zeroed by calloc, so untouched ones cost no memory; never freed
// (like the runtime's DFA caches, they live as long as the process).
class EdgeTable {
 public:
  EdgeTable(size_t states, size_t symbols)
      : states_(states),
        symbols_(symbols),
        slots_(static_cast<std::atomic<antlr4::dfa::DFAState*>*>(
            std::calloc(states * symbols, sizeof(std::atomic<antlr4::dfa::DFAState*>)))) {}
  ~EdgeTable() { std::free(slots_); }
  EdgeTable(const EdgeTable&) = delete;
  EdgeTable& operator=(const EdgeTable&) = delete;

  // The slot for an edge, or null when the table has no room for it.
  std::atomic<antlr4::dfa::DFAState*>* slot(int state, size_t symbol) const {
    if (!slots_ || state < 0 || static_cast<size_t>(state) >= states_ || symbol >= symbols_) return nullptr;
    return &slots_[static_cast<size_t>(state) * symbols_ + symbol];
  }

  // The cached target, else `lookup()` (the runtime's locked lookup), cached when found.
  template <class Lookup>
  antlr4::dfa::DFAState* find(int state, size_t symbol, Lookup lookup) const {
    std::atomic<antlr4::dfa::DFAState*>* s = slot(state, symbol);
    if (!s) return lookup();
    antlr4::dfa::DFAState* target = s->load(std::memory_order_acquire);
    if (target) return target;
    target = lookup();
    if (target) s->store(target, std::memory_order_release);
    return target;
  }

 private:
  size_t states_, symbols_;
  std::atomic<antlr4::dfa::DFAState*>* slots_;
};

// The lexer's ATN simulator: the DFA of its one mode, with lock-free edges for ASCII.
class LexerSimulator : public antlr4::atn::LexerATNSimulator {
 public:
  using LexerATNSimulator::LexerATNSimulator;

 protected:
  antlr4::dfa::DFAState* getExistingTargetState(antlr4::dfa::DFAState* s, size_t t) override {
    static const EdgeTable edges(4096, MAX_DFA_EDGE + 1);
    if (_mode != 0) return LexerATNSimulator::getExistingTargetState(s, t);
    return edges.find(s->stateNumber, t, [&] { return LexerATNSimulator::getExistingTargetState(s, t); });
  }
};

// The operator loop of the left-recursive rule opExpr, read from the ATN: which token
// continues it with which alternative, at which precedence.
struct OperatorLoop {
  size_t loopDecision = SIZE_MAX;  // alternative 1: take another operator, 2: leave the loop
  size_t altDecision = SIZE_MAX;   // which operator alternative
  struct Operator {
    size_t alt = 0;  // 0: not an operator
    int precedence = 0;
  };
  std::vector<Operator> byToken;

  static const OperatorLoop& of(const antlr4::atn::ATN& atn) {
    static const OperatorLoop loop = build(atn);
    return loop;
  }

 private:
  static OperatorLoop build(const antlr4::atn::ATN& atn) {
    using namespace antlr4::atn;
    OperatorLoop none, loop;
    for (DecisionState* s : atn.decisionToState) {
      auto* entry = dynamic_cast<StarLoopEntryState*>(s);
      if (!entry || !entry->isPrecedenceDecision || s->ruleIndex != KContractParser::RuleOpExpr) continue;
      if (entry->transitions.size() != 2) return none;
      auto* block = dynamic_cast<StarBlockStartState*>(entry->transitions[0]->target);
      if (!block) return none;
      loop.loopDecision = static_cast<size_t>(entry->decision);
      loop.altDecision = static_cast<size_t>(block->decision);
      loop.byToken.resize(atn.maxTokenType + 1);
      for (size_t alt = 0; alt < block->transitions.size(); ++alt) {
        // Each alternative: {precpred(_ctx, p)}? then its operator token(s), then the operand.
        int precedence = -1;
        antlr4::misc::IntervalSet tokens;
        for (ATNState* at = block->transitions[alt]->target; at && at->transitions.size() == 1;) {
          Transition* t = at->transitions[0];
          if (t->getSerializationType() == Transition::PRECEDENCE) {
            precedence = static_cast<PrecedencePredicateTransition*>(t)->precedence;
          } else if (!t->isEpsilon()) {
            tokens = t->label();
            break;
          }
          at = t->target;
        }
        if (precedence < 0 || tokens.isEmpty()) return none;
        for (ssize_t type : tokens.toList()) {
          if (type < 0 || static_cast<size_t>(type) >= loop.byToken.size() || loop.byToken[type].alt) return none;
          loop.byToken[type] = Operator{alt + 1, precedence};
        }
      }
      return loop;
    }
    return none;
  }
};

// Decisions that the next token settles, for the first, SLL stage of a parse (in which any
// syntax error abandons the stage): for each decision and token, the one alternative that can
// begin with that token or, when none can, go on to what follows the decision. Where that
// alternative is the only possible one, every prediction method picks it on well-formed
// input; the other decisions are left to ANTLR. The second stage, which reports errors,
// always predicts with ANTLR, so its messages do not change.
struct OneTokenDecisions {
  size_t symbols = 0;                           // token types + 1 (EOF is 0)
  std::vector<std::vector<uint8_t>> byDecision;  // [decision][type + 1]: the alternative, or 0
  // The primary decision: a name then '(' is a call, any other name a name.
  size_t primaryDecision = SIZE_MAX, callAlt = 0, nameAlt = 0;
  std::vector<bool> name;  // [type + 1]: a token of the name alternative (rule ident)

  static const OneTokenDecisions& of(const antlr4::atn::ATN& atn) {
    static const OneTokenDecisions table = build(atn);
    return table;
  }

 private:
  static OneTokenDecisions build(const antlr4::atn::ATN& atn) {
    using namespace antlr4::atn;
    OneTokenDecisions t;
    t.symbols = atn.maxTokenType + 2;
    t.byDecision.resize(atn.decisionToState.size());
    for (DecisionState* s : atn.decisionToState) {
      if (auto* loop = dynamic_cast<StarLoopEntryState*>(s); loop && loop->isPrecedenceDecision) continue;
      size_t alts = s->transitions.size();
      if (alts < 2 || alts > 255) continue;
      std::vector<antlr4::misc::IntervalSet> first;
      for (size_t i = 0; i < alts; ++i) first.push_back(atn.nextTokens(s->transitions[i]->target));
      std::vector<uint8_t>& row = t.byDecision[static_cast<size_t>(s->decision)];
      row.assign(t.symbols, 0);
      for (size_t sym = 0; sym < t.symbols; ++sym) {
        ssize_t type = static_cast<ssize_t>(sym) - 1;  // EOF is -1
        size_t viable = 0, count = 0;
        for (size_t i = 0; i < alts; ++i)
          if (first[i].contains(type) || first[i].contains(antlr4::Token::EPSILON)) viable = i + 1, ++count;
        if (count == 1) row[sym] = static_cast<uint8_t>(viable);
      }
      // The primaries of opExpr: the alternative of calls begins with a name or a reduction
      // keyword, that of names with a name only.
      if (s->ruleIndex == KContractParser::RuleOpExpr && s->getStateType() == ATNState::BLOCK_START) {
        size_t call = 0, name = 0;
        for (size_t i = 0; i < alts; ++i) {
          bool word = first[i].contains(static_cast<ssize_t>(KContractParser::NAME));
          bool reducer = first[i].contains(static_cast<ssize_t>(KContractParser::KW_SUM));
          if (word && reducer) call = i + 1;
          if (word && !reducer) name = i + 1;
        }
        if (call && name) {
          t.primaryDecision = static_cast<size_t>(s->decision);
          t.callAlt = call;
          t.nameAlt = name;
          t.name.assign(t.symbols, false);
          for (size_t sym = 0; sym < t.symbols; ++sym)
            t.name[sym] = first[name - 1].contains(static_cast<ssize_t>(sym) - 1) && row[sym] == 0;
        }
      }
    }
    return t;
  }
};

// The parser's ATN simulator.
//
// ANTLR predicts the operator loop of opExpr with full lookahead: the loop at each precedence
// level and the loops of the enclosing levels all accept an operator, so on an error the
// prediction fails inside the right operand and the error is reported from the loop, where
// every operator is "expected". An operator token decides it here (precedence climbing): it
// continues the innermost loop whose precedence admits it. For well-formed input that is the
// alternative ANTLR picks as well; on an error the parser goes on into the operand and
// reports it there, as the grammar with one rule per precedence level did.
class ParserSimulator : public antlr4::atn::ParserATNSimulator {
 public:
  ParserSimulator(antlr4::Parser* parser, antlr4::atn::ParserATNSimulator& base)
      : ParserATNSimulator(parser, base.atn, base.decisionToDFA, base.getSharedContextCache()),
        loop_(OperatorLoop::of(base.atn)),
        oneToken_(OneTokenDecisions::of(base.atn)) {}

  size_t adaptivePredict(antlr4::TokenStream* input, size_t decision, antlr4::ParserRuleContext* outer) override {
    size_t la = input->LA(1);
    if (decision == loop_.loopDecision || decision == loop_.altDecision) {
      if (la < loop_.byToken.size() && loop_.byToken[la].alt) {
        const OperatorLoop::Operator& op = loop_.byToken[la];
        if (decision == loop_.altDecision) return op.alt;
        return parser->precpred(outer, op.precedence) ? 1 : 2;
      }
      // After an operand anything but an operator leaves the loop (in the second stage ANTLR
      // decides, and on an error reports what may follow).
      if (decision == loop_.loopDecision && getPredictionMode() == antlr4::atn::PredictionMode::SLL) return 2;
    }
    if (getPredictionMode() == antlr4::atn::PredictionMode::SLL && decision < oneToken_.byDecision.size()) {
      const std::vector<uint8_t>& row = oneToken_.byDecision[decision];
      size_t sym = la + 1;  // EOF (-1) is 0
      if (sym < row.size() && row[sym]) return row[sym];
      // A name (not a reduction keyword, whose calls and reductions ANTLR tells apart).
      if (decision == oneToken_.primaryDecision && sym < oneToken_.name.size() && oneToken_.name[sym])
        return input->LA(2) == KContractParser::LPAREN ? oneToken_.callAlt : oneToken_.nameAlt;
    }
    decision_ = decision;
    return ParserATNSimulator::adaptivePredict(input, decision, outer);
  }

 protected:
  antlr4::dfa::DFAState* getExistingTargetState(antlr4::dfa::DFAState* previous, size_t t) override {
    const EdgeTable* edges = edgesOf(decision_);
    auto lookup = [&] { return ParserATNSimulator::getExistingTargetState(previous, t); };
    // t is a token type, or EOF (-1): symbol t + 1.
    return edges ? edges->find(previous->stateNumber, t + 1, lookup) : lookup();
  }

 private:
  static constexpr size_t kDecisions = 256;

  // The edge table of a decision's DFA, made on first use.
  const EdgeTable* edgesOf(size_t decision) const {
    static std::atomic<EdgeTable*> tables[kDecisions];
    if (decision >= kDecisions) return nullptr;
    EdgeTable* table = tables[decision].load(std::memory_order_acquire);
    if (table) return table;
    auto* made = new EdgeTable(1024, atn.maxTokenType + 2);
    if (tables[decision].compare_exchange_strong(table, made, std::memory_order_acq_rel)) return made;
    delete made;  // another thread was first
    return table;
  }

  const OperatorLoop& loop_;
  const OneTokenDecisions& oneToken_;
  size_t decision_ = SIZE_MAX;  // the decision being predicted
};

}  // namespace
}  // namespace kc::parse
