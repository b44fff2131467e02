#!/usr/bin/env node
// Grammar tests with the engine VS Code itself uses (vscode-textmate + vscode-oniguruma):
//  1. the JSON grammar is what syntaxes/build-grammar.js writes (not edited by hand);
//  2. scope snapshots: each fixture's tokens and scopes equal fixtures/NAME.onnxtxt.snap
//     (`npm test -- --update` rewrites them; review the diff);
//  3. assertions on the scopes themes rely on, which hold whatever the snapshots say;
//  4. a 30,000-line printed model tokenises line by line without stalling (no time limit is
//     asserted; a catastrophic regex would hang here).
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const ROOT = path.resolve(__dirname, '..', '..');
const GRAMMAR = path.join(ROOT, 'syntaxes', 'onnxtext.tmLanguage.json');
const FIXTURES = path.join(__dirname, 'fixtures');
const UPDATE = process.argv.includes('--update');

let failures = 0;
function fail(message) {
  failures++;
  console.error(`FAIL ${message}`);
}

async function loadGrammar() {
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === 'source.onnxtext' ? vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf8'), GRAMMAR) : null,
  });
  return registry.loadGrammar('source.onnxtext');
}

/** [[{text, scopes}]] per line. */
function tokenize(grammar, text) {
  let state = vsctm.INITIAL;
  return text.split(/\r?\n/).map((line) => {
    const result = grammar.tokenizeLine(line, state);
    state = result.ruleStack;
    return result.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), start: t.startIndex, end: t.endIndex, scopes: t.scopes }));
  });
}

/** The snapshot format: each source line, then one `^^^ scopes` line per non-blank token. */
function snapshot(text, lines) {
  const out = [];
  text.split(/\r?\n/).forEach((line, i) => {
    out.push(`> ${line}`);
    for (const token of lines[i]) {
      if (!token.text.trim()) continue;
      const scopes = token.scopes.filter((s) => s !== 'source.onnxtext').join(' ') || '-';
      out.push(`${' '.repeat(token.start + 2)}${'^'.repeat(token.end - token.start)} ${scopes}`);
    }
  });
  return out.join('\n') + '\n';
}

/** The scopes of the first token equal to `word` on the first line containing `context`. */
function scopesOf(lines, text, context, word) {
  const index = text.split(/\r?\n/).findIndex((l) => l.includes(context));
  if (index < 0) throw new Error(`no line contains ${JSON.stringify(context)}`);
  const line = text.split(/\r?\n/)[index];
  const at = line.indexOf(word, line.indexOf(context));
  const token = lines[index].find((t) => t.start <= at && at < t.end);
  return token ? token.scopes : [];
}

const EXPECT = [
  // [context on the line, word, scope prefix the word's innermost scopes must include]
  ['# a comment', '# a comment', 'comment.line.number-sign'],
  ['ir_version', 'ir_version', 'keyword.other'],
  ['opset_import', 'opset_import', 'keyword.other'],
  ['"com.microsoft" : 1', 'com', 'entity.name.namespace'],
  ['(float[N, 4] x', 'float', 'storage.type'],
  ['seq(float', 'seq', 'storage.type'],
  ['h = LeakyRelu', 'LeakyRelu', 'support.function'],
  ['com.microsoft.FusedMatMul', 'microsoft', 'entity.name.namespace'],
  ['com.microsoft.FusedMatMul', 'FusedMatMul', 'support.function'],
  ['<alpha = 0.5>', 'alpha', 'variable.parameter'],
  ['<alpha = 0.5>', '0.5', 'constant.numeric'],
  ['{nan, inf, -inf}', 'nan', 'constant.language'],
  ['{nan, inf, -inf}', 'inf', 'constant.language'],
  ['0x7FC00001', '0x7FC00001', 'constant.numeric'],
  ['"tab\\there"', '\\t', 'constant.character.escape'],
  ['"tab\\there"', 'tab', 'string.quoted.double'],
  ['=> (float[N, 4] y)', '=>', 'keyword.operator'],
  ['[mm] z = MatMul', 'mm', 'entity.name.label'],
  ['h = LeakyRelu', 'h', 'variable'],
  ['@ratio', '@', 'keyword.operator'],
  ['body: graph = ', 'graph', 'storage.type'],
];

async function main() {
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'syntaxes', 'build-grammar.js'), '--check'], { stdio: 'inherit' });
  } catch {
    fail('syntaxes/onnxtext.tmLanguage.json is not what syntaxes/build-grammar.js writes');
  }
  const grammar = await loadGrammar();
  const fixtures = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.onnxtxt')).sort();
  if (fixtures.length === 0) fail('no fixtures');
  for (const name of fixtures) {
    const text = fs.readFileSync(path.join(FIXTURES, name), 'utf8');
    const got = snapshot(text, tokenize(grammar, text));
    const snap = path.join(FIXTURES, `${name}.snap`);
    if (UPDATE || !fs.existsSync(snap)) {
      fs.writeFileSync(snap, got);
      console.log(`wrote ${path.relative(ROOT, snap)}`);
    } else if (fs.readFileSync(snap, 'utf8') !== got) {
      const want = fs.readFileSync(snap, 'utf8').split('\n');
      const lines = got.split('\n');
      const i = lines.findIndex((l, k) => l !== want[k]);
      fail(`${name}: scopes differ from the snapshot at its line ${i + 1}:\n  want ${want[i]}\n  got  ${lines[i]}\n(npm test -- --update rewrites it)`);
    } else {
      console.log(`ok   ${name} matches its snapshot`);
    }
  }
  const sample = fs.readFileSync(path.join(FIXTURES, 'scopes.onnxtxt'), 'utf8');
  const lines = tokenize(grammar, sample);
  for (const [context, word, scope] of EXPECT) {
    let scopes = [];
    try {
      scopes = scopesOf(lines, sample, context, word);
    } catch (error) {
      fail(`${word}: ${error.message}`);
      continue;
    }
    if (!scopes.some((s) => s.startsWith(scope))) fail(`${JSON.stringify(word)} in ${JSON.stringify(context)}: want ${scope}, got ${scopes.join(' ')}`);
    else console.log(`ok   ${JSON.stringify(word)} is ${scope}`);
  }
  // a large printed model: every line tokenised, none stalls
  const big = [];
  big.push('<ir_version: 10, opset_import: ["" : 21]>', 'g (float[N, 64] x0) => (float[N, 64] y)', '{');
  for (let i = 0; i < 30000; i++) big.push(`  x${i + 1} = ${['Relu', 'Tanh', 'Sigmoid'][i % 3]} <alpha = ${i}.5, name = "n/${i}"> (x${i})  # ${i}`);
  big.push('  y = Identity (x30000)', '}');
  const t = Date.now();
  const bigLines = tokenize(grammar, big.join('\n'));
  const ops = bigLines.filter((l) => l.some((tok) => tok.scopes.some((s) => s.startsWith('support.function')))).length;
  if (ops < 30000) fail(`the 30,000-line model: only ${ops} lines have an operator scope`);
  else console.log(`ok   a 30,000-line model tokenised in ${Date.now() - t} ms`);
  if (failures) {
    console.error(`${failures} grammar test(s) failed`);
    process.exit(1);
  }
  console.log('grammar tests passed');
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
