#!/usr/bin/env python3
"""Write <country>/data/policyengine-variables.tsv: the name, entity and period of every variable
PolicyEngine has, from the catalogue in ../shared/pe-catalogue/<country>.tsv (names and shapes only,
no labels). The household API uses it to tell a PolicyEngine variable this model does not have
(accepted, with a warning) from a name nobody has (refused). Usage, from the repository root:
    python3 countries/us/data/build_reference_variables.py us
    python3 countries/us/data/build_reference_variables.py uk
"""
import csv, re, sys, pathlib

SOURCES = {'us': 'PolicyEngine-US (commit 8914f89d)', 'uk': 'PolicyEngine-UK (commit c93e1a05)'}
ENTITY = {'SPMUnit': 'spm_unit', 'BenUnit': 'benunit'}

def entity_key(name):
    return ENTITY.get(name) or re.sub(r'(?<!^)(?=[A-Z])', '_', name).lower()

country = sys.argv[1]
root = pathlib.Path(__file__).resolve().parents[3]
src = root.parent / 'shared' / 'pe-catalogue' / f'{country}.tsv'
out = root / 'countries' / country / 'data' / 'policyengine-variables.tsv'
with open(src, newline='') as f:
    rows = sorted((r['name'], entity_key(r['entity']), r['period'].lower()) for r in csv.DictReader(f, delimiter='\t'))
with open(out, 'w', newline='') as f:
    f.write(f'# The variables of {SOURCES[country]} (name, entity, period), from its variable catalogue.\n')
    f.write('# Written by countries/us/data/build_reference_variables.py; read through country.yaml reference_variables.\n')
    f.write('name\tentity\tperiod\n')
    for r in rows:
        f.write('\t'.join(r) + '\n')
print(f'{out}: {len(rows)} variables')
