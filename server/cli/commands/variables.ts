/** `fiscus variables`: a country's variable catalogue (the data the microsimulation API's /variables serves). */
import * as path from 'path';
import { describeVariables, matchesSearch, VariableDescription } from '../../../core/catalogue';
import { CountryModel } from '../../../core/model';
import { parseArgs } from '../args';
import { CliCommand, CliIO, UsageError } from '../command';
import { availableCountries, packageRoot } from '../root';

const USAGE = `Usage: fiscus variables COUNTRY [--json] [--search TEXT] [--country-dir DIR]

Lists every variable of a country model: name, entity, period, type, unit, label, enum values,
default and whether it is an input (nothing computes it).

Options:
  --json            print a JSON array of objects instead of a table
  --search TEXT     only variables whose name, label or documentation contains TEXT
  --country-dir DIR load the country from DIR instead of the package's countries/ folder`;

function row(v: VariableDescription): string {
  const kind = v.is_input ? 'input' : 'computed';
  const values = v.possible_values ? ` [${v.possible_values.length <= 6 ? v.possible_values.join('|') : `${v.possible_values.slice(0, 5).join('|')}|… ${v.possible_values.length} values`}]` : '';
  return [v.name, v.entity, v.period, `${v.type}${values}`, v.unit ?? '', kind, `default=${JSON.stringify(v.default_value)}`, v.label ?? ''].join('\t');
}

export const command: CliCommand = {
  name: 'variables',
  summary: "List a country model's variables (--json for machines)",
  usage: USAGE,
  run(args: string[], io: CliIO): number {
    const parsed = parseArgs(args, ['search', 'country-dir'], ['json']);
    if (parsed.positionals.length !== 1) throw new UsageError('give one COUNTRY');
    const [country] = parsed.positionals;
    let folder: string;
    if (parsed.options['country-dir']) folder = path.resolve(io.cwd, parsed.options['country-dir']);
    else {
      const countries = availableCountries();
      if (!countries.includes(country)) throw new UsageError(`unknown country '${country}' (available: ${countries.join(', ') || 'none'})`);
      folder = path.join(packageRoot(), 'countries', country);
    }
    let list = describeVariables(CountryModel.load(folder));
    const search = parsed.options.search;
    if (search !== undefined) list = list.filter((v) => matchesSearch(v, search));
    if (parsed.flags.has('json')) io.out(JSON.stringify(list));
    else {
      io.out(['name', 'entity', 'period', 'type', 'unit', 'kind', 'default', 'label'].join('\t'));
      for (const v of list) io.out(row(v));
      io.out(`${list.length} variables`);
    }
    return 0;
  },
};
