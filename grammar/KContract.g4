// KContract.g4 — the one source of the .kcontract syntax.
//
// Statements end at a newline, as in Go: the lexer turns a newline into an NL token only
// when it follows a token that can end a statement (a name, a literal, `)`, `]`, `}`, `|`,
// `y*`) and no `(` or `[` is open. So a line that ends in an operator or a comma continues,
// and anything inside parentheses or brackets may span lines. `;` also separates statements.
// docs/language.md describes every rule below with examples.
grammar KContract;

// Every parse context derives from KContractContext, which parses allocate from an arena.
options { contextSuperClass = KContractContext; }

@parser::postinclude {
#include "compiler/parse/parse_arena.h"
}

@lexer::members {
  // Open brackets, innermost last: '(' '[' '{'. A newline ends a statement only when no
  // '(' or '[' is open inside the innermost '{'.
  std::vector<char> open;
  // Type of the last token sent to the parser on the default channel.
  size_t lastSignificant = 0;
  // A token held back while a synthetic NL goes first (see nextToken).
  std::unique_ptr<antlr4::Token> held;

  void opened(char c) { open.push_back(c); }
  void closed(char c) {
    if (c == '}') {  // a '}' also closes any '(' or '[' left open inside its block
      while (!open.empty() && open.back() != '{') open.pop_back();
      if (!open.empty()) open.pop_back();
    } else if (!open.empty() && open.back() != '{') {
      open.pop_back();
    }
  }
  bool insideParens() const { return !open.empty() && open.back() != '{'; }

  // The token before lastSignificant: a keyword after '.' or '-' is part of a name.
  size_t beforeLastSignificant = 0;

  bool newlineEndsStatement() const {
    if (insideParens()) return false;
    switch (lastSignificant) {
      case NAME: case REF: case INT: case FLOAT: case HEXFLOAT: case STRING:
      case RPAREN: case RBRACK: case RBRACE: case BAR: case PERCENT:  // `1%` ends protocol lines
      // soft keywords: ordinary names outside their own statements
      case KW_SEEDS: case KW_REPEATS: case KW_DIMS: case KW_VALUES: case KW_LAYOUTS: case KW_CELLS:
      case KW_PERTURB: case KW_CASE: case KW_LAYOUT: case KW_BACKEND: case KW_FAILS: case KW_ONLY: case KW_WHEN:
      case KW_WRONG: case KW_ERROR: case KW_GROWS: case KW_WITH: case KW_DIFFERS: case KW_RUN: case KW_TO:
      case KW_IMPLEMENTS:
        return true;
      default:
        // any other keyword ends a statement only as the last part of a name: std.ops.max
        return beforeLastSignificant == DOT || beforeLastSignificant == MINUS;
    }
  }

  // A name or keyword: any of them followed by `*` may be an oracle reference (`error*`).
  // (By type, not text: these are exactly the tokens that start with a letter or '_'.)
  static bool isWord(const antlr4::Token& t) {
    size_t type = t.getType();
    return type == NAME || (type >= KW_KCONTRACT && type <= KW_TO);
  }

  // Could this character begin an operand right after `name*`? Then `*` multiplies.
  static bool startsOperand(size_t c) {
    return c < 128 && (isalnum(static_cast<int>(c)) || c == '_' || c == '(');
  }

  // Keywords that only ever start a statement: one seen inside '(' or '[' means a bracket
  // was left unclosed, so the brackets are dropped and an NL is inserted, confining the
  // syntax error to its own statement.
  static bool startsStatementOnly(size_t type) {
    switch (type) {
      case KW_IMPORT: case KW_KERNEL: case KW_OP: case KW_CONTRACT: case KW_CLASS: case KW_APPLIES:
      case KW_WHERE: case KW_SCOPE: case KW_PRE: case KW_POST: case KW_ORACLE: case KW_TOLERANCE:
      case KW_PROTOCOL: case KW_SIGNATURE:
        return true;
      default:
        return false;
    }
  }

  // Blanks are skipped here rather than matched through the WS rule (the same characters:
  // a run of [ \t\f\r] that does not start with the '\r' of a CRLF line end).
  void skipBlanks() {
    size_t c = _input->LA(1);
    if (c != ' ' && c != '\t' && c != '\f' && (c != '\r' || _input->LA(2) == '\n')) return;
    auto* sim = static_cast<antlr4::atn::LexerATNSimulator*>(_interpreter);
    do {
      sim->consume(_input);
      c = _input->LA(1);
    } while (c == ' ' || c == '\t' || c == '\f' || c == '\r');
  }

  // Lexer's versions dynamic_cast the simulator on every call, and CommonToken's constructor
  // calls both for every token.
  size_t getLine() const override { return static_cast<antlr4::atn::LexerATNSimulator*>(_interpreter)->getLine(); }
  size_t getCharPositionInLine() override {
    return static_cast<antlr4::atn::LexerATNSimulator*>(_interpreter)->getCharPositionInLine();
  }

  // The DFA cache of the rules, for a faster simulator (compiler/parse/runtime_speed.h).
  static std::vector<antlr4::dfa::DFA>& dfaCache() { return _decisionToDFA; }

  // antlr4::Lexer::nextToken without its three dynamic_casts and std::function per token:
  // the same steps, for a lexer with one mode, no `more` and a char stream without marks.
  std::unique_ptr<antlr4::Token> matchToken() {
    auto* sim = static_cast<antlr4::atn::LexerATNSimulator*>(_interpreter);
    for (;;) {
      if (hitEOF) {
        emitEOF();
        return std::move(token);
      }
      token.reset();
      channel = antlr4::Token::DEFAULT_CHANNEL;
      tokenStartCharIndex = _input->index();
      tokenStartCharPositionInLine = sim->getCharPositionInLine();
      tokenStartLine = sim->getLine();
      _text.clear();
      type = antlr4::Token::INVALID_TYPE;
      size_t ttype;
      try {
        ttype = sim->match(_input, mode);
      } catch (antlr4::LexerNoViableAltException& e) {  // cannot happen: BAD_CHAR matches anything
        notifyListeners(e);
        recover(e);
        ttype = SKIP;
      }
      if (_input->LA(1) == antlr4::Token::EOF) hitEOF = true;
      if (type == antlr4::Token::INVALID_TYPE) type = ttype;
      // REF's rule matches two NUL bytes in the input: those are bad characters, never a `y*`
      // (only nextToken makes REF tokens). Found by the fuzzer: tests/fuzz/regressions/.
      if (type == REF) type = BAD_CHAR;
      if (type == SKIP) continue;
      if (!token) emit();
      return std::move(token);
    }
  }

  // The next token from the rules, with the bookkeeping of brackets and newlines done here
  // (lexer actions would cost a seek and an action executor run per token).
  std::unique_ptr<antlr4::Token> lexToken() {
    for (;;) {
      skipBlanks();
      std::unique_ptr<antlr4::Token> next = matchToken();
      switch (next->getType()) {
        case LPAREN: opened('('); break;
        case LBRACK: opened('['); break;
        case LBRACE: opened('{'); break;
        case RPAREN: closed(')'); break;
        case RBRACK: closed(']'); break;
        case RBRACE: closed('}'); break;
        case NL:
          if (!newlineEndsStatement()) continue;  // a line that goes on
          break;
        default: break;
      }
      return next;
    }
  }

  std::unique_ptr<antlr4::Token> nextToken() override {
    std::unique_ptr<antlr4::Token> token = held ? std::move(held) : lexToken();
    if (isWord(*token) && _input->LA(1) == '*' && !startsOperand(_input->LA(2))) {
      getInterpreter<antlr4::atn::LexerATNSimulator>()->consume(_input);
      token = _factory->create({this, _input}, REF, token->getText() + "*",
          antlr4::Token::DEFAULT_CHANNEL, token->getStartIndex(), token->getStopIndex() + 1, token->getLine(),
          token->getCharPositionInLine());
    }
    // `where(` is the function where(c, a, b), a name: the keyword `where` of kernels and
    // scopes is never followed by '(' (where N in 1..8).
    if (token->getType() == KW_WHERE && _input->LA(1) == '(')
      token = _factory->create({this, _input}, NAME, token->getText(), antlr4::Token::DEFAULT_CHANNEL,
          token->getStartIndex(), token->getStopIndex(), token->getLine(), token->getCharPositionInLine());
    if (insideParens() && startsStatementOnly(token->getType())) {
      while (insideParens()) open.pop_back();
      size_t at = token->getStartIndex();
      auto nl = _factory->create({this, _input}, NL, "\n",
          antlr4::Token::DEFAULT_CHANNEL, at, at - 1, token->getLine(), token->getCharPositionInLine());
      held = std::move(token);
      beforeLastSignificant = lastSignificant;
      lastSignificant = NL;
      return nl;
    }
    if (token->getChannel() == antlr4::Token::DEFAULT_CHANNEL) {
      beforeLastSignificant = lastSignificant;
      lastSignificant = token->getType();
    }
    return token;
  }
}

@parser::members {
  // Set when a statement matched one of the catch-all "unknown" alternatives, so the parse
  // step looks for them only then.
  bool sawUnknownItem = false;

  bool atBlockEnd() {
    size_t t = _input->LA(1);
    return t == RBRACE || t == antlr4::Token::EOF;
  }
}

// ---------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------

file        : (NL | SEMI)* header stmtEnd (item stmtEnd)* EOF ;
header      : KW_KCONTRACT INT ;
item        : importDecl | kernelDecl | opDecl | contractDecl | classDecl ;
// Every statement ends with newlines/';' or right before the '}' (or end of file) that
// closes its block. A statement that does not end properly is where error recovery skips
// to the end of the line, so the next statement is parsed normally.
stmtEnd     : (NL | SEMI)+ | {atBlockEnd()}? ;

importDecl  : KW_IMPORT qualifiedName ;

// A dotted name whose parts may contain dashes: std.exc.nan-propagation. Whitespace inside
// a name is rejected by the transformer (the parts must touch).
qualifiedName : ident ((DOT | MINUS) nameSegment)* ;
nameSegment   : anyWord | INT anyWord? ;   // conv-2d, acme.1x1 (the parts must touch)
contractId    : qualifiedName AT INT ;

// ---------------------------------------------------------------------------------------
// Kernel and op signatures
// ---------------------------------------------------------------------------------------

kernelDecl  : KW_KERNEL ident signature (NL? whereClause)? (NL? KW_IMPLEMENTS qualifiedName)? ;
opDecl      : KW_OP qualifiedName signature (NL? whereClause)? NL? block ;
signature   : LPAREN paramList? RPAREN ARROW LPAREN paramList? RPAREN ;
paramList   : param (COMMA param)* ;
param       : ident COLON ident (LBRACK (expr (COMMA expr)*)? RBRACK)? ;
whereClause : KW_WHERE domainItem (COMMA domainItem)* ;
// `T in {f32, bf16}`, `H in 1..262144`, `K in 16..2^20`
domainItem  : ident KW_IN domain ;
domain      : expr DOTDOT expr          # rangeDomain
            | LBRACE (expr (COMMA expr)*)? RBRACE  # setDomain
            ;

// ---------------------------------------------------------------------------------------
// Contracts and contract classes
// ---------------------------------------------------------------------------------------

contractDecl : KW_CONTRACT contractId STRING? (NL? KW_APPLIES contractId (COMMA contractId)*)? NL? block ;
classDecl    : KW_CLASS contractId STRING? NL? block ;

block       : LBRACE (NL | SEMI)* (section stmtEnd)* RBRACE ;
section     : KW_SCOPE LBRACE (NL | SEMI)* (scopeItem stmtEnd)* RBRACE                          # scopeSection
            | KW_PRE exprBlock                                                         # preSection
            | KW_POST exprBlock                                                        # postSection
            | KW_ORACLE precision? NL? defBlock                                        # oracleSection
            | KW_TOLERANCE (defBlock | ident)                                          # toleranceSection
            | KW_PROTOCOL LBRACE (NL | SEMI)* (protocolItem stmtEnd)* RBRACE                    # protocolSection
            | KW_SIGNATURE qualifiedName NL? LBRACE (NL | SEMI)* (signatureClause stmtEnd)* RBRACE # signatureSection
            | ident anyBlock { sawUnknownItem = true; }                                # unknownSection
            ;
// Balanced braces around anything: the body of a section this language does not have.
anyBlock    : LBRACE (anyBlock | ~(LBRACE | RBRACE))* RBRACE ;
// The rest of a statement whose first word is not one this section knows.
restOfLine  : ~(NL | SEMI | LBRACE | RBRACE)* ;
precision   : ident (LPAREN INT RPAREN)? ;            // f64, mpfr(256)
exprBlock   : LBRACE (NL | SEMI)* (expr stmtEnd)* RBRACE ;
defBlock    : LBRACE (NL | SEMI)* (definition stmtEnd)* RBRACE ;

// --- scope ------------------------------------------------------------------------------
scopeItem   : KW_KERNEL ident (COMMA ident)*                      # scopeKernels
            | KW_OP qualifiedName (COMMA qualifiedName)*          # scopeOps
            | KW_LAYOUT layoutBinding (COMMA layoutBinding)*      # scopeLayouts
            | KW_BACKEND ident (COMMA ident)*                     # scopeBackends
            | KW_WHERE domainItem (COMMA domainItem)*             # scopeDomains
            | ident restOfLine { sawUnknownItem = true; }         # unknownScopeItem
            ;
layoutBinding : target COLON setExpr ;
target        : ident | STAR ;

// --- protocol ---------------------------------------------------------------------------
protocolItem : KW_SEEDS setExpr                                   # protoSeeds
             | KW_REPEATS setExpr                                 # protoRepeats
             | KW_DIMS dimBinding (COMMA dimBinding)*             # protoDims
             | KW_VALUES valueBinding (COMMA valueBinding)*       # protoValues
             | KW_LAYOUTS layoutChoice (COMMA layoutChoice)*      # protoLayouts
             | KW_CELLS setExpr                                   # protoCells
             | KW_PERTURB setExpr                                 # protoPerturb
             | KW_CASE caseBinding (COMMA caseBinding)*           # protoCase
             | ident restOfLine { sawUnknownItem = true; }        # unknownProtocolItem
             ;
dimBinding   : ident KW_IN setExpr ;
valueBinding : target TILDE setExpr ;
layoutChoice : target KW_IN setExpr ;
// One case the author asks for by name: dims given values, inputs given distributions.
caseBinding  : dimBinding | valueBinding ;

// Sets of protocol choices: `{1, 3, 64}`, `1..8`, `boundary(tiles: 32, 64) + {1, 4097}`,
// `normal(0, 1) | special(nan: 1%)`. `+` is union, `|` lists alternatives; arithmetic goes
// in parentheses: `{(2^31 + 1)}`.
setExpr     : setTerm ((PLUS | BAR) setTerm)* ;
setTerm     : LBRACE (setExpr (COMMA setExpr)*)? RBRACE           # setLiteral
            | setAtom DOTDOT setAtom                              # setRange
            | ident LPAREN (setArg (COMMA setArg)*)? RPAREN       # setCall
            | setAtom                                             # setAtomTerm
            ;
// An argument is an arithmetic expression (`0`, `C - 1`, `floor(C / 2)`) or, where no
// expression reads it whole, a set (`1%`, `{1, 2}`): the expression is tried first.
setArg      : (ident COLON)? (expr | setExpr) ;
setAtom     : MINUS? number PERCENT?                              # setNumber
            | INT CARET INT                                       # setPower
            | ident                                               # setName
            | STRING                                              # setString
            | LPAREN expr RPAREN                                  # setArith
            ;

// --- signatures ---------------------------------------------------------------------------
signatureClause : KW_FAILS KW_ONLY? KW_WHEN expr                  # sigFailsWhen
                | KW_WRONG KW_CELLS (LBRACK ident (COMMA ident)* RBRACK)? COLON expr  # sigWrongCells
                | KW_ERROR KW_GROWS KW_WITH ident                 # sigErrorGrows
                | KW_DIFFERS KW_RUN KW_TO KW_RUN                  # sigDiffersRunToRun
                | KW_ERROR compareOp expr                         # sigErrorBound
                ;

// --- oracle and tolerance definitions -------------------------------------------------------
definition  : ident (LBRACK ident (COMMA ident)* RBRACK)? ASSIGN expr ;

// ---------------------------------------------------------------------------------------
// Expressions (docs/language.md §10.1 lists the precedence levels)
// ---------------------------------------------------------------------------------------

// A quantifier is a whole expression, the body of another quantifier or the inside of
// parentheses; never the operand of an operator.
expr        : (KW_FORALL | KW_EXISTS) binder (COMMA binder)* COLON expr   # quantified
            | opExpr                                                     # unquantified
            ;
binder      : ident (KW_IN expr DOTDOT expr)? ;
// One left-recursive rule for every operator, highest precedence first (one parse context
// per operator rather than one per precedence level). An operand is a primary with at most
// one index list; the primaries are written out here, names, numbers and reduction keywords
// as tokens (keep the names equal to the rule ident): no parse context of their own.
opExpr      : ( (INT | FLOAT | HEXFLOAT)                                            // number
              | REF                                                                 // y*
              | (KW_SUM | KW_PROD | KW_MAX | KW_MIN) LPAREN binder COMMA expr RPAREN  // reduction
              | ( NAME | KW_SEEDS | KW_REPEATS | KW_DIMS | KW_VALUES | KW_LAYOUTS | KW_CELLS | KW_PERTURB | KW_CASE
                | KW_LAYOUT | KW_BACKEND | KW_FAILS | KW_ONLY | KW_WHEN | KW_WRONG | KW_ERROR | KW_GROWS
                | KW_WITH | KW_DIFFERS | KW_RUN | KW_TO | KW_IMPLEMENTS
                | KW_SUM | KW_PROD | KW_MAX | KW_MIN
                ) (DOT anyWord)* LPAREN (expr (COMMA expr)*)? RPAREN                // call (an op: std.ops.gelu(z))
              | ( NAME | KW_SEEDS | KW_REPEATS | KW_DIMS | KW_VALUES | KW_LAYOUTS | KW_CELLS | KW_PERTURB | KW_CASE
                | KW_LAYOUT | KW_BACKEND | KW_FAILS | KW_ONLY | KW_WHEN | KW_WRONG | KW_ERROR | KW_GROWS
                | KW_WITH | KW_DIFFERS | KW_RUN | KW_TO | KW_IMPLEMENTS
                )                                                                   // name
              | LPAREN expr RPAREN                                                  // parentheses
              | BAR expr BAR                                                        // absolute value
              | KW_IF expr KW_THEN expr KW_ELSE expr                                // conditional
              ) (LBRACK expr (COMMA expr)* RBRACK)?                      # operand
            | <assoc=right> opExpr CARET opExpr                          # powerExpr // -2^2 = -(2^2); 2^-1
            | (MINUS | BANG) opExpr                                      # prefixExpr
            | opExpr (STAR | SLASH | PERCENT) opExpr                     # mulExpr
            | opExpr (PLUS | MINUS) opExpr                               # addExpr
            | opExpr (EQ | NE | LT | LE | GT | GE) opExpr                # compareExpr // a < b <= c chains
            | opExpr ANDAND opExpr                                       # andExpr
            | opExpr OROR opExpr                                         # orExpr
            | <assoc=right> opExpr ARROW opExpr                          # impliesExpr
            ;
compareOp   : EQ | NE | LT | LE | GT | GE ;
number      : INT | FLOAT | HEXFLOAT ;

// Words that are keywords in one place but ordinary names everywhere else (also written out
// in opExpr).
ident       : NAME | KW_SEEDS | KW_REPEATS | KW_DIMS | KW_VALUES | KW_LAYOUTS | KW_CELLS | KW_PERTURB | KW_CASE
            | KW_LAYOUT | KW_BACKEND | KW_FAILS | KW_ONLY | KW_WHEN | KW_WRONG | KW_ERROR | KW_GROWS | KW_WITH
            | KW_DIFFERS | KW_RUN | KW_TO | KW_IMPLEMENTS ;
// Any word at all, for the later parts of a qualified name: std.ops.max, std.mem.in-place.
anyWord     : ident | KW_KCONTRACT | KW_IMPORT | KW_KERNEL | KW_OP | KW_CONTRACT | KW_CLASS
            | KW_APPLIES | KW_WHERE | KW_IN | KW_SCOPE | KW_PRE | KW_POST | KW_ORACLE | KW_TOLERANCE
            | KW_PROTOCOL | KW_SIGNATURE | KW_FORALL | KW_EXISTS | KW_IF | KW_THEN | KW_ELSE
            | KW_SUM | KW_PROD | KW_MAX | KW_MIN ;

// ---------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------

KW_KCONTRACT : 'kcontract' ;
KW_IMPORT    : 'import' ;
KW_KERNEL    : 'kernel' ;
KW_OP        : 'op' ;
KW_CONTRACT  : 'contract' ;
KW_CLASS     : 'class' ;
KW_APPLIES   : 'applies' ;
KW_IMPLEMENTS: 'implements' ;
KW_WHERE     : 'where' ;
KW_IN        : 'in' ;
KW_SCOPE     : 'scope' ;
KW_PRE       : 'pre' ;
KW_POST      : 'post' ;
KW_ORACLE    : 'oracle' ;
KW_TOLERANCE : 'tolerance' ;
KW_PROTOCOL  : 'protocol' ;
KW_SIGNATURE : 'signature' ;
KW_FORALL    : 'forall' ;
KW_EXISTS    : 'exists' ;
KW_IF        : 'if' ;
KW_THEN      : 'then' ;
KW_ELSE      : 'else' ;
KW_SUM       : 'sum' ;
KW_PROD      : 'prod' ;
KW_MAX       : 'max' ;
KW_MIN       : 'min' ;
KW_SEEDS     : 'seeds' ;
KW_REPEATS   : 'repeats' ;
KW_DIMS      : 'dims' ;
KW_VALUES    : 'values' ;
KW_LAYOUTS   : 'layouts' ;
KW_LAYOUT    : 'layout' ;
KW_CELLS     : 'cells' ;
KW_PERTURB   : 'perturb' ;
KW_CASE      : 'case' ;
KW_BACKEND   : 'backend' ;
KW_FAILS     : 'fails' ;
KW_ONLY      : 'only' ;
KW_WHEN      : 'when' ;
KW_WRONG     : 'wrong' ;
KW_ERROR     : 'error' ;
KW_GROWS     : 'grows' ;
KW_WITH      : 'with' ;
KW_DIFFERS   : 'differs' ;
KW_RUN       : 'run' ;
KW_TO        : 'to' ;

// `y*` — the oracle's value of output y — is made in nextToken from NAME and a `*` right
// after it, unless the next character is a letter, digit, `_` or `(`: `a*b`, `a*2`, `a*(b)`
// multiply. (A lexer predicate here would keep ANTLR from caching the lexer's DFA.)
REF       : '\u0000' '\u0000' ;   // never matched: the type of the tokens nextToken makes
NAME      : [a-zA-Z_] [a-zA-Z0-9_]* ;

HEXFLOAT  : '0' [xX] (HEXDIGIT+ ('.' HEXDIGIT*)? | '.' HEXDIGIT+) [pP] [+-]? [0-9]+ ;
INT       : '0' [xX] HEXDIGIT+ | [0-9]+ ;
FLOAT     : [0-9]+ '.' [0-9]+ EXPONENT? | [0-9]+ EXPONENT ;
fragment EXPONENT : [eE] [+-]? [0-9]+ ;
fragment HEXDIGIT : [0-9a-fA-F] ;
STRING    : '"' (~["\\\r\n] | '\\' ~[\r\n])* '"' ;
// A string that reaches the end of its line; the parse step reports it.
// It stops at a brace, so the block around it still parses.
UNTERMINATED_STRING : '"' (~["\\\r\n{}] | '\\' ~[\r\n])* ;

ARROW     : '->' ;
ANDAND    : '&&' ;
OROR      : '||' ;
EQ        : '==' ;
NE        : '!=' ;
LE        : '<=' ;
GE        : '>=' ;
LT        : '<' ;
GT        : '>' ;
ASSIGN    : '=' ;
DOTDOT    : '..' ;
DOT       : '.' ;
COMMA     : ',' ;
COLON     : ':' ;
SEMI      : ';' ;
AT        : '@' ;
TILDE     : '~' ;
PLUS      : '+' ;
MINUS     : '-' ;
STAR      : '*' ;
SLASH     : '/' ;
PERCENT   : '%' ;
CARET     : '^' ;
BANG      : '!' ;
BAR       : '|' ;
LPAREN    : '(' ;
RPAREN    : ')' ;
LBRACK    : '[' ;
RBRACK    : ']' ;
LBRACE    : '{' ;
RBRACE    : '}' ;

LINE_COMMENT  : '//' ~[\r\n]* -> channel(2) ;
BLOCK_COMMENT : '/*' .*? '*/' -> channel(2) ;
// Brackets and NL: nextToken keeps count of open brackets and drops the NL of a line that
// goes on.
NL        : '\r'? '\n' ;
WS        : [ \t\f\r]+ -> skip ;
// Anything else is a single bad character, reported by the parse step with its location.
BAD_CHAR  : . ;
