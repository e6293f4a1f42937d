import { expect } from 'chai';
import * as path from 'node:path';
import { packageRoot } from '../../server/cli/root';
import { DEFAULT_LIMITS, HouseholdCalculator } from '../../server/household/calculate';
import { warmHousehold, warmHouseholds } from '../../server/household/warm';
import { coreEngine, loadCountryModel } from '../../server/models/engine';
import { ModelRegistry } from '../../server/models/registry';
import { FIXTURE_COUNTRIES, startTestServer, tempDir } from './helpers';

const registryOf = (countriesRoot: string) => new ModelRegistry({ countriesRoot, releasesRoot: tempDir('releases'), loadModel: loadCountryModel, refreshMs: 0 });

async function until(test: () => boolean): Promise<void> {
  for (let k = 0; k < 200 && !test(); k++) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe('household API: warming', () => {
  it('compiles the formulas a household reaches, for each year, once', async () => {
    const registry = registryOf(FIXTURE_COUNTRIES);
    const logs: string[] = [];
    const first = await warmHouseholds(registry, coreEngine, { years: ['2024', '2025'], log: (m) => logs.push(m) });
    expect(first.map((w) => w.country)).to.deep.equal(['tinyland']);
    expect(first[0].years).to.deep.equal(['2024', '2025']);
    expect(first[0].kernels).to.be.greaterThan(0);
    expect(logs.join('\n')).to.match(/household API: tinyland warmed for 2024 and 2025 in [\d.]+ s \(\d+ formulas compiled\)/);
    // The model keeps what it compiled: a second warm-up (or the first client) compiles nothing.
    const again = await warmHouseholds(registry, coreEngine, { years: ['2024', '2025'], log: () => {} });
    expect(again[0].kernels).to.equal(0);
    // A further year is a further set of formulas (parameters are folded in per period).
    const later = await warmHouseholds(registry, coreEngine, { years: ['2026'], log: () => {} });
    expect(later[0].kernels).to.be.greaterThan(0);
  });

  it("builds a household every real country's API accepts, with a net income", function () {
    this.timeout(60_000);
    const registry = registryOf(path.join(packageRoot(), 'countries'));
    const calculator = new HouseholdCalculator(registry, coreEngine, DEFAULT_LIMITS);
    for (const country of ['uk', 'us']) {
      const model = registry.resolve(country).model;
      const household = warmHousehold(model, '2025');
      const answer = calculator.calculate(country, JSON.stringify({ household }));
      const result = answer.result as Record<string, Record<string, Record<string, Record<string, number>>>>;
      const net = result.households.household1.household_net_income['2025'];
      expect(net, country).to.be.a('number').and.to.be.greaterThan(30_000);
      expect(answer.warnings ?? [], country).to.deep.equal([]);
    }
  });

  it('runs once a warm server listens, unless FISCUS_WARM turns it off', async () => {
    const warm = await startTestServer({ warm: true });
    try {
      await until(() => warm.logs.some((m) => m.startsWith('household API: tinyland warmed')));
      expect(warm.logs.filter((m) => m.startsWith('household API:'))).to.have.length(1);
    } finally {
      await warm.close();
    }
    const cold = await startTestServer({ warm: true, env: { FISCUS_WARM: 'false' } });
    try {
      // The warm-up would have run by now: it starts on the turn after listening.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(cold.logs.filter((m) => m.startsWith('household API:'))).to.deep.equal([]);
    } finally {
      await cold.close();
    }
  });
});
