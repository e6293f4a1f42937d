import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadTestFile, loadTestText, parseYaml11 } from '../../core/testing/load';

describe('testing/load', () => {
  it('reads YAML 1.1 like PyYAML: digit separators, yes/no, dates kept as text', () => {
    const data = parseYaml11('a: 12_570\nb: yes\nc: 2025-01-01\nd: {2024-01: 5, 2024: 6}\ne: 2024-01\nf: [Off, True, y, n]\n') as Record<string, unknown>;
    expect(data).to.deep.equal({ a: 12570, b: true, c: '2025-01-01', d: { '2024-01': 5, '2024': 6 }, e: '2024-01', f: [false, true, 'y', 'n'] });
  });

  it('resolves anchors and aliases and keeps the last of repeated keys', () => {
    const data = parseYaml11('x: &m [a, b]\ny: *m\nz: 1\nz: 2\n') as Record<string, unknown>;
    expect(data).to.deep.equal({ x: ['a', 'b'], y: ['a', 'b'], z: 2 });
  });

  it('loads a list of cases with names, positions and keywords', () => {
    const cases = loadTestText('f.yaml', '- name: one\n  period: 2024\n  keywords: [fast]\n  output: {x: 1}\n- period: 2024-01\n  output: {x: 2}\n');
    expect(cases.map((c) => [c.index, c.name, c.keywords, c.errors])).to.deep.equal([
      [0, 'one', ['fast'], []],
      [1, '#2', [], []],
    ]);
    expect(cases[1].raw!.period).to.equal('2024-01');
  });

  it('accepts a single mapping as one case', () => {
    const cases = loadTestText('f.yaml', 'name: solo\nperiod: 2024\noutput:\n  x: 1\n');
    expect(cases).to.have.length(1);
    expect(cases[0].raw!.output).to.deep.equal({ x: 1 });
  });

  it('rejects an unknown key, naming file, case and key', () => {
    const [c] = loadTestText('f.yaml', '- name: bad\n  outputs: {x: 1}\n  output: {x: 1}\n');
    expect(c.raw).to.equal(undefined);
    expect(c.errors).to.have.length(1);
    expect(c.errors[0]).to.match(/^f\.yaml: case 'bad': unexpected key 'outputs' \(allowed: name, period/);
  });

  it('rejects a case without output', () => {
    const [c] = loadTestText('f.yaml', '- name: no output\n  input: {x: 1}\n');
    expect(c.errors).to.deep.equal(["f.yaml: case 'no output': missing key 'output'"]);
  });

  it('rejects an empty output', () => {
    const [c] = loadTestText('f.yaml', '- name: empty\n  output: {}\n');
    expect(c.errors).to.deep.equal(["f.yaml: case 'empty': 'output' is empty: a case must check at least one variable"]);
  });

  it('rejects keys of the wrong type, naming the key', () => {
    const [c] = loadTestText('f.yaml', '- name: t\n  absolute_error_margin: small\n  output: {x: 1}\n');
    expect(c.errors).to.deep.equal(["f.yaml: case 't': 'absolute_error_margin' must be number or null"]);
  });

  it('rejects a case that is not a mapping, naming its position', () => {
    const cases = loadTestText('f.yaml', '- name: ok\n  output: {x: 1}\n- just text\n');
    expect(cases[1].errors).to.deep.equal(['f.yaml: case \'#2\': a case must be a mapping, got string "just text"']);
  });

  it('turns a YAML syntax error into one failed pseudo-case', () => {
    const cases = loadTestText('f.yaml', '- name: [\n');
    expect(cases).to.have.length(1);
    expect(cases[0].name).to.equal('(file)');
    expect(cases[0].errors[0]).to.match(/^f\.yaml: invalid YAML: /);
  });

  it('reports an empty file', () => {
    expect(loadTestText('f.yaml', '# nothing\n')[0].errors).to.deep.equal(['f.yaml: the file holds no test case']);
  });

  it('reports a file that cannot be read', () => {
    const missing = path.join(os.tmpdir(), 'fiscus-no-such-file.yaml');
    const [c] = loadTestFile(missing);
    expect(c.errors[0]).to.contain(`${missing}: cannot read the file:`);
  });

  it('reads a file from disk, including a name with a space', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-load-'));
    const file = path.join(dir, 'a copy.yaml');
    fs.writeFileSync(file, '- name: x\n  period: 2024\n  output: {x: 1}\n');
    expect(loadTestFile(file)[0].raw!.period).to.equal(2024);
    fs.rmSync(dir, { recursive: true });
  });
});
