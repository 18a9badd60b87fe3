// Terms: identifiers split into their pieces, English stemmed (Porter's published examples), and
// what a question says beyond its words (toolchain names, phrase acronyms).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyseQuery, phraseAcronyms } from '../../lib/kb/query.js';
import { processTerm, stem, tokenize } from '../../lib/kb/tokenize.js';

const terms = (text: string) => tokenize(text).map(processTerm).filter(Boolean);

test('identifiers are indexed whole and in their dotted, snake_case and CamelCase pieces', () => {
  assert.deepEqual(tokenize('TwoSiteDMRGEngine'), ['TwoSiteDMRGEngine', 'Two', 'Site', 'DMRG', 'Engine']);
  assert.deepEqual(tokenize('chi_max'), ['chi_max', 'chi', 'max']);
  assert.deepEqual(tokenize('qiskit.quantum_info.SparsePauliOp'), [
    'qiskit', 'quantum_info', 'quantum', 'info', 'SparsePauliOp', 'Sparse', 'Pauli', 'Op',
  ]);
  assert.deepEqual(tokenize('EfficientSU2 VMC_SR'), ['EfficientSU2', 'Efficient', 'SU2', 'VMC_SR', 'VMC', 'SR']);
  assert.deepEqual(tokenize('plain words only'), ['plain', 'words', 'only']);
});

test('processTerm lowercases, drops stopwords and one-letter noise, stems words but not identifiers', () => {
  assert.equal(processTerm('The'), null);
  assert.equal(processTerm('x'), null);
  assert.equal(processTerm('Transformation'), 'transform');
  assert.equal(processTerm('chi_max'), 'chi_max');
  assert.equal(processTerm('MP2'), 'mp2');
  // A question's words meet a docstring's inflections and an identifier's pieces.
  assert.deepEqual(terms('estimate expectation values'), terms('Estimator expectation_value').filter((t) => t !== 'expectation_value'));
});

// Porter's own examples pin the algorithm: a Porter2/Snowball or Lancaster stemmer gives other stems
// (e.g. Porter2 leaves `generalization` as `general`, not `gener`) and would shift every ranking.
test('the stemmer reproduces the examples of the 1980 paper (Porter, not Porter2)', () => {
  const examples: Record<string, string> = {
    caresses: 'caress', ponies: 'poni', ties: 'ti', caress: 'caress', cats: 'cat', feed: 'feed', agreed: 'agre',
    plastered: 'plaster', motoring: 'motor', sing: 'sing', conflated: 'conflat', troubled: 'troubl', sized: 'size',
    hopping: 'hop', tanned: 'tan', falling: 'fall', hissing: 'hiss', fizzed: 'fizz', failing: 'fail', filing: 'file',
    happy: 'happi', relational: 'relat', conditional: 'condit', rational: 'ration', digitizer: 'digit',
    operator: 'oper', triplicate: 'triplic', formative: 'form', hopeful: 'hope', goodness: 'good', revival: 'reviv',
    allowance: 'allow', adjustment: 'adjust', adoption: 'adopt', controll: 'control', roll: 'roll',
    generalization: 'gener',
  };
  for (const [word, expected] of Object.entries(examples)) assert.equal(stem(word), expected, word);
});

test('phrases spell acronyms; toolchain names become a preference, not words', () => {
  assert.ok(phraseAcronyms('restricted Hartree-Fock').includes('rhf'));
  assert.ok(phraseAcronyms('restricted Boltzmann machine ansatz').includes('rbm'));
  // Words that are already acronyms or identifiers do not join a phrase.
  assert.deepEqual(phraseAcronyms('DMRG chi_max'), []);
  const q = analyseQuery('PySCF unrestricted Kohn-Sham open shell');
  assert.deepEqual(q.mentioned, ['pyscf']);
  assert.ok(!/pyscf/i.test(q.text));
  assert.ok(q.acronyms.includes('uks'));
  // qiskit_aer is a package name, not the toolchain word.
  assert.deepEqual(analyseQuery('qiskit_aer noise model').mentioned, []);
  assert.deepEqual(analyseQuery('NetKet VMC and Qiskit Estimator').mentioned.sort(), ['netket', 'qiskit']);
});
