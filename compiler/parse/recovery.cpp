#include "compiler/parse/recovery.h"

#include <algorithm>

#include "KContractParser.h"

namespace kc::parse {

void StatementRecovery::recover(antlr4::Parser* parser, std::exception_ptr) {
  antlr4::TokenStream* input = parser->getTokenStream();
  // The same parser state failing twice at one token would loop: make progress first.
  ssize_t index = static_cast<ssize_t>(input->index());
  if (index == lastRecoveryIndex_) {
    bool seen = std::find(statesAtLastIndex_.begin(), statesAtLastIndex_.end(), parser->getState()) !=
                statesAtLastIndex_.end();
    if (seen && input->LA(1) != antlr4::Token::EOF) parser->consume();
  } else {
    statesAtLastIndex_.clear();
  }
  lastRecoveryIndex_ = index;
  statesAtLastIndex_.push_back(parser->getState());

  int braces = 0;  // braces opened after the error point
  for (size_t t = input->LA(1); t != antlr4::Token::EOF; t = input->LA(1)) {
    if (t == KContractParser::LBRACE) {
      ++braces;
    } else if (t == KContractParser::RBRACE) {
      if (braces == 0) break;
      --braces;
    } else if ((t == KContractParser::NL || t == KContractParser::SEMI) && braces == 0) {
      break;
    }
    parser->consume();
  }

  antlr4::ParserRuleContext* ctx = parser->getContext();
  if (dynamic_cast<KContractParser::StmtEndContext*>(ctx)) {
    // The broken statement is over: take its line end and start the next one afresh.
    while (input->LA(1) == KContractParser::NL || input->LA(1) == KContractParser::SEMI) parser->consume();
    endErrorCondition(parser);
    return;
  }
  // A '}' that closes the very block whose rule is recovering belongs to it: take it, or
  // the enclosing block would mistake it for its own end.
  bool blockRule = dynamic_cast<KContractParser::BlockContext*>(ctx) ||
                   dynamic_cast<KContractParser::SectionContext*>(ctx) ||
                   dynamic_cast<KContractParser::ExprBlockContext*>(ctx) ||
                   dynamic_cast<KContractParser::DefBlockContext*>(ctx);
  if (blockRule && input->LA(1) == KContractParser::RBRACE) parser->consume();
}

}  // namespace kc::parse
