#!/usr/bin/env node
// Tests the TextMate grammar (syntaxes/kcontract.tmLanguage.json) with the engine VS Code
// uses: vscode-textmate on vscode-oniguruma's WebAssembly build of Oniguruma.
//   1. package.json contributes the grammar for the language kcontract.
//   2. Every .kcontract file of the repository (but tests/fuzz/, whose inputs are random
//      bytes) tokenizes without an error, and a token is invalid.* exactly where the real
//      lexer reports a bad character or an unterminated string: the first invalid token of a
//      line is at a line and column that the golden case's NAME.err gives for KC1001 or
//      KC1002, and each of those has one.
//   3. The tokens of test/fixture.kcontract have the scopes listed in EXPECTATIONS, and
//      those of the one-line SNIPPETS theirs.
// Run: node editors/vscode/test/tokenize.js (after `npm ci` in editors/vscode). Exit 1 on
// any failure.
'use strict';

const fs = require('fs');
const path = require('path');

const EXT = path.resolve(__dirname, '..');
const ROOT = path.resolve(EXT, '..', '..');
const GRAMMAR = path.join(EXT, 'syntaxes', 'kcontract.tmLanguage.json');
const FIXTURE = path.join(__dirname, 'fixture.kcontract');

// [text on its line of the fixture, scope every token of it has, occurrence (1 = first)].
// The text must be whole tokens: it starts where a token starts and ends where one ends.
const EXPECTATIONS = [
  ['// Fixture', 'comment.line.double-slash.kcontract', 1, '//'],
  ['// Fixture', 'punctuation.definition.comment.kcontract', 1, '//'],
  ['kcontract', 'keyword.other.kcontract'],
  ['1', 'constant.numeric.integer.decimal.kcontract'],
  ['import', 'keyword.other.kcontract'],
  ['std.classes', 'entity.name.namespace.kcontract'],
  ['/* A block comment', 'comment.block.kcontract'],
  ['over two lines. */', 'comment.block.kcontract', 1, '*/'],
  ['kernel', 'keyword.other.kcontract'],
  ['acme_softmax', 'entity.name.function.kernel.kcontract'],
  ['x: T[R, H], values', 'variable.parameter.kcontract', 1, 'x'],
  ['values: f32', 'variable.parameter.kcontract', 1, 'values'],
  ['T', 'storage.type.kcontract'],
  ['R', 'variable.other.kcontract'],
  ['f32', 'storage.type.kcontract'],
  ['->', 'punctuation.separator.arrow.kcontract'],
  ['where', 'keyword.other.kcontract'],
  ['in', 'keyword.control.kcontract'],
  ['bf16', 'storage.type.dtype.kcontract'],
  ['..', 'keyword.operator.range.kcontract'],
  ['0x10000', 'constant.numeric.integer.hexadecimal.kcontract'],
  ['2^32', 'constant.numeric.integer.decimal.kcontract', 1, '2'],
  ['2^32', 'keyword.operator.arithmetic.kcontract', 1, '^'],
  ['2^32', 'constant.numeric.integer.decimal.kcontract', 1, '32'],
  ['implements', 'keyword.other.kcontract'],
  ['std.ops.softmax', 'entity.other.inherited-class.kcontract'],
  ['contract', 'keyword.other.kcontract'],
  ['std.op.softmax@2', 'entity.name.function.contract.kcontract'],
  ['"row softmax, \\"stable\\""', 'string.quoted.double.kcontract'],
  ['\\"', 'constant.character.escape.kcontract'],
  ['applies', 'keyword.other.kcontract'],
  ['std.exc.nan-propagation@1', 'entity.other.inherited-class.kcontract'],
  ['scope', 'keyword.other.section.kcontract'],
  ['kernel acme_softmax', 'entity.name.function.kernel.kcontract', 2, 'acme_softmax'],
  ['layout', 'keyword.other.scope.kcontract'],
  ['strided', 'support.constant.protocol.kcontract'],
  ['*: contiguous', 'variable.language.wildcard.kcontract', 1, '*'],
  ['backend', 'keyword.other.scope.kcontract'],
  ['cuda', 'support.constant.backend.kcontract'],
  ['pre', 'keyword.other.section.kcontract'],
  ['eps > 0', 'variable.other.kcontract', 1, 'eps'],
  ['&&', 'keyword.operator.logical.kcontract'],
  ['forall', 'keyword.control.kcontract'],
  ['!isinf', 'keyword.operator.logical.kcontract', 1, '!'],
  ['isinf', 'support.function.builtin.kcontract'],
  ['oracle', 'keyword.other.section.kcontract'],
  ['mpfr', 'storage.type.precision.kcontract'],
  ['256', 'constant.numeric.integer.decimal.kcontract'],
  ['m[r] =', 'entity.name.variable.definition.kcontract', 1, 'm'],
  ['max', 'support.function.reduction.kcontract'],
  ['sum', 'support.function.reduction.kcontract'],
  ['exp', 'support.function.builtin.kcontract'],
  ['tolerance', 'keyword.other.section.kcontract'],
  ['ulp', 'support.function.builtin.kcontract'],
  ['y*', 'variable.other.oracle.kcontract'],
  ['y*', 'punctuation.definition.oracle.kcontract', 1, '*'],
  ['eps(f32)', 'support.function.builtin.kcontract', 1, 'eps'],
  ['eps(f32)', 'storage.type.dtype.kcontract', 1, 'f32'],
  ['1e-5', 'constant.numeric.float.decimal.kcontract'],
  ['0x1p4', 'constant.numeric.float.hexadecimal.kcontract'],
  ['post', 'keyword.other.section.kcontract'],
  ['|y[r, h]', 'keyword.operator.bar.kcontract', 1, '|'],
  ['<=', 'keyword.operator.comparison.kcontract'],
  ['tol[r, h]', 'variable.language.tol.kcontract', 2, 'tol'],
  ['forall cells', 'keyword.control.kcontract', 1, 'forall'],
  ['forall cells', 'variable.language.cells.kcontract', 1, 'cells'],
  ['isnan', 'support.function.builtin.kcontract'],
  ['exists', 'keyword.control.kcontract'],
  ['if', 'keyword.control.kcontract'],
  ['H % 64', 'keyword.operator.arithmetic.kcontract', 1, '%'],
  ['values[r]', 'variable.other.kcontract', 1, 'values'],
  ['1.5', 'constant.numeric.float.decimal.kcontract'],
  ['true', 'constant.language.kcontract'],
  ['protocol', 'keyword.other.section.kcontract'],
  ['seeds', 'keyword.other.protocol.kcontract'],
  ['dims', 'keyword.other.protocol.kcontract'],
  ['boundary', 'support.function.protocol.kcontract'],
  ['tiles', 'variable.parameter.kcontract'],
  ['2^31', 'constant.numeric.integer.decimal.kcontract', 1, '31'],
  ['values x', 'keyword.other.protocol.kcontract', 1, 'values'],
  ['~', 'keyword.operator.distribution.kcontract'],
  ['normal', 'support.function.protocol.kcontract'],
  ['| uniform', 'keyword.operator.bar.kcontract', 1, '|'],
  ['const_rows', 'support.constant.protocol.kcontract'],
  ['special(nan: 1%', 'variable.parameter.kcontract', 1, 'nan'],
  ['1%', 'constant.numeric.percentage.kcontract'],
  ['1%', 'keyword.other.unit.percent.kcontract', 1, '%'],
  ['0.5%', 'constant.numeric.percentage.kcontract'],
  ['values * ~', 'variable.language.wildcard.kcontract', 1, '*'],
  ['"zeros"', 'string.quoted.double.kcontract'],
  ['layouts', 'keyword.other.protocol.kcontract'],
  ['padded', 'support.function.protocol.kcontract'],
  ['cells all', 'keyword.other.protocol.kcontract', 1, 'cells'],
  ['perturb', 'keyword.other.protocol.kcontract'],
  ['noise', 'support.constant.protocol.kcontract'],
  ['case H', 'keyword.other.protocol.kcontract', 1, 'case'],
  ['repeats', 'keyword.other.protocol.kcontract'],
  ['signature', 'keyword.other.section.kcontract'],
  ['tail-mask', 'entity.name.function.signature.kcontract'],
  ['fails', 'keyword.other.signature.kcontract'],
  ['only', 'keyword.other.signature.kcontract'],
  ['when', 'keyword.other.signature.kcontract'],
  ['fails when', 'keyword.other.signature.kcontract'],
  ['wrong', 'keyword.other.signature.kcontract'],
  ['wrong cells', 'keyword.other.signature.kcontract', 1, 'cells'],
  ['error grows with', 'keyword.other.signature.kcontract', 1, 'error'],
  ['grows', 'keyword.other.signature.kcontract'],
  ['with', 'keyword.other.signature.kcontract'],
  ['error <=', 'keyword.other.signature.kcontract', 1, 'error'],
  ['differs run to run', 'keyword.other.signature.kcontract'],
  ['class', 'keyword.other.kcontract'],
  ['std.exc.fixture@1', 'entity.name.function.class.kcontract'],
  ['|y - y*|', 'variable.other.oracle.kcontract', 1, 'y*'],
];

// [text, part, scope, occurrence of the part (1 = first)], each text tokenized alone.
const SNIPPETS = [
  ['a*b', 'a', 'variable.other.kcontract'],
  ['a*b', '*', 'keyword.operator.arithmetic.kcontract'],
  ['a*2', '*', 'keyword.operator.arithmetic.kcontract'],
  ['a*(b + 1)', '*', 'keyword.operator.arithmetic.kcontract'],
  ['y*y*', '*', 'keyword.operator.arithmetic.kcontract', 1],
  ['y*y*', 'y*', 'variable.other.oracle.kcontract', 2],
  ['a*-1', 'a*', 'variable.other.oracle.kcontract'],
  ['y* * 2', '*', 'keyword.operator.arithmetic.kcontract', 2],
  ['error*', 'error*', 'variable.other.oracle.kcontract'],
  ['c*[i, j]', 'c*', 'variable.other.oracle.kcontract'],
  ['3%4', '%', 'keyword.operator.arithmetic.kcontract'],
  ['1..8', '..', 'keyword.operator.range.kcontract'],
  ['1..8', '8', 'constant.numeric.integer.decimal.kcontract'],
  ['0x1.8p-1', '0x1.8p-1', 'constant.numeric.float.hexadecimal.kcontract'],
  ['1.5e-3', '1.5e-3', 'constant.numeric.float.decimal.kcontract'],
  ['0x1F', '0x1F', 'constant.numeric.integer.hexadecimal.kcontract'],
  ['f32x', 'f32x', 'variable.other.kcontract'],
  ['a || b', '||', 'keyword.operator.logical.kcontract'],
  ['a != b', '!=', 'keyword.operator.comparison.kcontract'],
  ['op std.ops.max(x: f32[N]) -> (y: f32[N])', 'std.ops.max', 'entity.name.function.op.kcontract'],
  ['op std.ops.max(x: f32[N]) -> (y: f32[N])', 'y', 'variable.parameter.kcontract'],
  ['import std.mem.in-place', 'std.mem.in-place', 'entity.name.namespace.kcontract'],
  ['a # b', '#', 'invalid.illegal.character.kcontract'],
  ['a & b', '&', 'invalid.illegal.character.kcontract'],
  ['contract a@1 "open {', '"open ', 'invalid.illegal.unterminated-string.kcontract'],
];

function fail(message) {
  console.log(`FAIL ${message}`);
  process.exitCode = 1;
}

function loadEngine() {
  let vsctm;
  let oniguruma;
  try {
    vsctm = require('vscode-textmate');
    oniguruma = require('vscode-oniguruma');
  } catch (e) {
    console.log('FAIL vscode-textmate or vscode-oniguruma is missing: run `npm ci` in editors/vscode ' +
      '(scripts/setup.sh does)');
    process.exit(1);
  }
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  const onigLib = oniguruma
    .loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength))
    .then(() => ({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }));
  const registry = new vsctm.Registry({
    onigLib,
    loadGrammar: async (scopeName) =>
      scopeName === 'source.kcontract' ? vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf8'), GRAMMAR) : null,
  });
  return { vsctm, registry };
}

// The tokens of each line: [{ start, end, text, scopes }], as VS Code would make them.
function tokenize(vsctm, grammar, text) {
  let state = vsctm.INITIAL;
  return text.split(/\r\n|\r|\n/).map((line) => {
    const r = grammar.tokenizeLine(line, state);
    if (r.stoppedEarly) throw new Error(`tokenizing stopped early on: ${line}`);
    state = r.ruleStack;
    return r.tokens.map((t) => ({
      start: t.startIndex,
      end: Math.min(t.endIndex, line.length),
      text: line.slice(t.startIndex, t.endIndex),
      scopes: t.scopes,
    }));
  });
}

// Every .kcontract under the repository root, sorted, relative with '/': not under a folder
// whose name starts with '.', node_modules, tests/fuzz, or the build folders and bundle/ at
// the root (ignored by git: copies or outputs).
function corpus() {
  const found = [];
  const walk = (rel) => {
    const entries = fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true });
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name.startsWith('.') || e.name === 'node_modules' || r === 'tests/fuzz') continue;
        if (!rel && /^(build.*|bundle|Testing)$/.test(e.name)) continue;
        walk(r);
      } else if (e.isFile() && e.name.endsWith('.kcontract')) {
        found.push(r);
      }
    }
  };
  walk('');
  return found.sort();
}

// The lexical errors of a golden input: "line:column" for each KC1001 (bad character) and
// KC1002 (unterminated string) in NAME.err beside NAME.kcontract.
function lexicalErrors(rel) {
  const err = path.join(ROOT, rel.replace(/\.kcontract$/, '.err'));
  const at = new Map();
  if (!fs.existsSync(err)) return at;
  const base = path.basename(rel).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^${base}:(\\d+):(\\d+): error\\[(KC100[12])\\]`, 'gm');
  for (const m of fs.readFileSync(err, 'utf8').matchAll(re)) at.set(`${m[1]}:${m[2]}`, m[3]);
  return at;
}

function checkCorpus(vsctm, grammar) {
  const files = corpus();
  if (files.length === 0) fail(`no .kcontract files under ${ROOT}`);
  let marked = 0;
  for (const rel of files) {
    let lines;
    try {
      lines = tokenize(vsctm, grammar, fs.readFileSync(path.join(ROOT, rel), 'utf8'));
    } catch (e) {
      fail(`${rel}: ${e.message}`);
      continue;
    }
    // The first invalid token of each line, "line:column" (1-based, as the diagnostics).
    const invalid = new Map();
    lines.forEach((tokens, i) => {
      const t = tokens.find((tok) => tok.scopes.some((s) => s.startsWith('invalid.')));
      if (t) invalid.set(`${i + 1}:${t.start + 1}`, t);
    });
    const expected = lexicalErrors(rel);
    for (const [at, t] of invalid) {
      if (expected.has(at)) {
        console.log(`ok   ${rel}:${at} ${JSON.stringify(t.text)} -> ${t.scopes[t.scopes.length - 1]} (${expected.get(at)})`);
        marked++;
      } else {
        fail(`${rel}:${at} ${JSON.stringify(t.text)} is ${t.scopes[t.scopes.length - 1]}, but the lexer reports no error there`);
      }
    }
    for (const [at, code] of expected) {
      if (!invalid.has(at)) fail(`${rel}:${at} the lexer reports ${code} here, but no token there is invalid.*`);
    }
  }
  return { files: files.length, marked };
}

// Checks one expectation against the tokens of a text; prints "ok   ..." and returns true, or
// prints "FAIL ...". An occurrence inside a comment counts only for a scope of comments.
function check(source, lines, [context, scope, occurrence = 1, part = context], name) {
  const label = `${part === context ? part : `${part} (in ${context})`} -> ${scope}`;
  const word = /[A-Za-z0-9_]/;
  const inComment = (i, at) => lines[i].some((t) => t.start <= at && at < t.end && t.scopes.some((x) => x.startsWith('comment.')));
  let seen = 0;
  let where = null;
  source.forEach((line, i) => {
    for (let at = line.indexOf(context); at >= 0 && !where; at = line.indexOf(context, at + 1)) {
      const before = line[at - 1];
      const after = line[at + context.length];
      if ((before && word.test(before) && word.test(context[0])) ||
          (after && word.test(after) && word.test(context[context.length - 1]))) continue;
      if (inComment(i, at) !== scope.includes('comment')) continue;
      if (++seen === occurrence) where = { line: i, at };
    }
  });
  if (!where) {
    fail(`${label}: ${name} has no occurrence ${occurrence} of ${JSON.stringify(context)}`);
    return false;
  }
  const start = where.at + context.indexOf(part);
  const end = start + part.length;
  const tokens = lines[where.line].filter((t) => t.start < end && t.end > start);
  const aligned = tokens.length > 0 && tokens[0].start === start && tokens[tokens.length - 1].end === end;
  // Blanks between the words of a phrase (`fails only when`) need not have the scope.
  const wrong = tokens.filter((t) => !t.scopes.includes(scope) && !(t.start > start && /^\s+$/.test(t.text)));
  if (aligned && wrong.length === 0) {
    console.log(`ok   ${label}`);
    return true;
  }
  const got = tokens.map((t) => `${JSON.stringify(t.text)}: ${t.scopes.slice(1).join(' ') || '(none)'}`);
  fail(`${label} (${name} line ${where.line + 1}): got ${got.join(', ')}`);
  return false;
}

function checkFixture(vsctm, grammar) {
  const text = fs.readFileSync(FIXTURE, 'utf8');
  const lines = tokenize(vsctm, grammar, text);
  const source = text.split(/\r\n|\r|\n/);
  return EXPECTATIONS.filter((e) => check(source, lines, e, 'fixture')).length;
}

// Texts the canonical fixture cannot hold (the formatter would space `a*b` out), each
// tokenized alone: [text, part, scope, occurrence of the part].
function checkSnippets(vsctm, grammar) {
  let ok = 0;
  for (const [text, part, scope, occurrence = 1] of SNIPPETS) {
    const lines = tokenize(vsctm, grammar, text);
    // The occurrence-th place of the part, found by position rather than by word.
    let at = -1;
    for (let n = 0; n < occurrence; n++) at = text.indexOf(part, at + 1);
    if (at < 0) {
      fail(`${text}: no occurrence ${occurrence} of ${JSON.stringify(part)}`);
      continue;
    }
    const tokens = lines[0].filter((t) => t.start < at + part.length && t.end > at);
    const aligned = tokens.length > 0 && tokens[0].start === at && tokens[tokens.length - 1].end === at + part.length;
    const label = `${text}: ${part}${occurrence > 1 ? ` (${occurrence})` : ''} -> ${scope}`;
    if (aligned && tokens.every((t) => t.scopes.includes(scope))) {
      console.log(`ok   ${label}`);
      ok++;
    } else {
      fail(`${label}: got ${tokens.map((t) => `${JSON.stringify(t.text)}: ${t.scopes.slice(1).join(' ') || '(none)'}`).join(', ')}`);
    }
  }
  return ok;
}

async function main() {
  const { vsctm, registry } = loadEngine();
  const grammar = await registry.loadGrammar('source.kcontract');
  if (!grammar) throw new Error(`cannot load ${GRAMMAR}`);

  // The manifest contributes this grammar for this language.
  const manifest = JSON.parse(fs.readFileSync(path.join(EXT, 'package.json'), 'utf8'));
  const contributed = manifest.contributes.grammars.find((g) => g.scopeName === 'source.kcontract');
  const language = manifest.contributes.languages.find((l) => l.id === 'kcontract');
  let manifestOk = 0;
  if (!contributed || path.resolve(EXT, contributed.path) !== GRAMMAR || contributed.language !== 'kcontract' ||
      !language || !language.extensions.includes('.kcontract') ||
      !fs.existsSync(path.resolve(EXT, language.configuration || ''))) {
    fail('package.json does not contribute language kcontract (.kcontract, language-configuration.json) ' +
      'with syntaxes/kcontract.tmLanguage.json');
  } else {
    JSON.parse(fs.readFileSync(path.resolve(EXT, language.configuration), 'utf8'));
    console.log('ok   package.json: language kcontract (.kcontract), grammar source.kcontract');
    manifestOk = 1;
  }

  const { files, marked } = checkCorpus(vsctm, grammar);
  const ok = checkFixture(vsctm, grammar) + checkSnippets(vsctm, grammar);
  const failed = process.exitCode === 1;
  console.log(`${failed ? 'FAILED: ' : ''}tokenized ${files} files, ${manifestOk + marked + ok} expectations ok`);
}

main().catch((e) => {
  console.log(`FAIL ${e.stack || e}`);
  process.exit(1);
});
