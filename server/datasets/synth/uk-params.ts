/**
 * Parameters of the synthetic UK population, each with the published statistic it comes from
 * (docs/datasets.md explains the distributions built on them). Money is at 2024-25 levels unless
 * a table by year is given; other years are moved by NOMINAL_GROWTH.
 */

/** UK households, 2023: 28.4 million (ONS, Families and households in the UK: 2023). */
export const UK_HOUSEHOLDS_2023 = 28.4e6;
/** Household growth per year: about 0.6% (ONS, 28.2 million in 2022 to 28.4 million in 2023). */
export const HOUSEHOLD_GROWTH = 0.006;
/** Nominal growth of earnings and rents per year away from 2024 (assumption, near ASHE 2023-24 growth of 6-7% falling towards the OBR's ~3-4%). */
export const NOMINAL_GROWTH = 0.035;

/**
 * Household types, shares of households. ONS Families and households in the UK 2022-23: 30% one
 * person (about half aged 65+), 57% one couple family, 10% one lone-parent family, the rest
 * multi-family or unrelated sharers; couples without children 28% (7.96 million of 28.4 million).
 */
export const HOUSEHOLD_TYPES: { type: string; share: number }[] = [
  { type: 'single_working_age', share: 15 },
  { type: 'single_pensioner', share: 14 },
  { type: 'couple_working_age', share: 15 },
  { type: 'couple_pensioner', share: 13 },
  { type: 'couple_children', share: 22 },
  { type: 'couple_adult_children', share: 7 },
  { type: 'lone_parent', share: 6.5 },
  { type: 'lone_parent_adult_children', share: 3.5 },
  { type: 'sharers', share: 4 },
];

/**
 * Dependent children per family with dependent children: 1: 44%, 2: 40%, 3+: 16% (ONS Families
 * and households 2023, families by number of dependent children); 3+ split 12/3/1 by us.
 */
export const CHILDREN_COUNT = [0, 44, 40, 12, 3, 1];

/** Regions (the model's `region` values) and their approximate shares of UK households (ONS household estimates by region, rounded). */
export const REGIONS: { region: string; share: number; privateRent: number; socialRentFactor: number }[] = [
  // privateRent: average monthly private rent, ONS Price Index of Private Rents, early 2025 (England
  // £1,381, Wales £785, Scotland £998, Northern Ireland £832; the English regions are our
  // approximations of that release's regional averages, to £50); socialRentFactor: ratio of the region's social rent to England's average (assumption).
  { region: 'NORTH_EAST', share: 4.2, privateRent: 700, socialRentFactor: 0.85 },
  { region: 'NORTH_WEST', share: 11.1, privateRent: 950, socialRentFactor: 0.9 },
  { region: 'YORKSHIRE', share: 8.3, privateRent: 880, socialRentFactor: 0.88 },
  { region: 'EAST_MIDLANDS', share: 7.3, privateRent: 950, socialRentFactor: 0.9 },
  { region: 'WEST_MIDLANDS', share: 8.6, privateRent: 1000, socialRentFactor: 0.92 },
  { region: 'EAST_OF_ENGLAND', share: 9.4, privateRent: 1300, socialRentFactor: 1.05 },
  { region: 'LONDON', share: 12.0, privateRent: 2200, socialRentFactor: 1.35 },
  { region: 'SOUTH_EAST', share: 13.6, privateRent: 1400, socialRentFactor: 1.1 },
  { region: 'SOUTH_WEST', share: 8.8, privateRent: 1150, socialRentFactor: 0.98 },
  { region: 'WALES', share: 4.8, privateRent: 785, socialRentFactor: 0.92 },
  { region: 'SCOTLAND', share: 8.9, privateRent: 1000, socialRentFactor: 0.85 },
  { region: 'NORTHERN_IRELAND', share: 2.6, privateRent: 830, socialRentFactor: 0.8 },
];

/**
 * Tenure by household type (shares), calibrated so that the whole population matches the English
 * Housing Survey 2023-24: owner occupiers 65% (about 35% outright, 30% with a mortgage), private
 * renters 19%, social renters 16%; outright ownership concentrated among pensioners and social
 * renting among lone parents, as the EHS tables by age and household type show.
 * Order: RENT_FROM_COUNCIL, RENT_FROM_HA, RENT_PRIVATELY, OWNED_OUTRIGHT, OWNED_WITH_MORTGAGE.
 */
export const TENURES = ['RENT_FROM_COUNCIL', 'RENT_FROM_HA', 'RENT_PRIVATELY', 'OWNED_OUTRIGHT', 'OWNED_WITH_MORTGAGE'];
export const TENURE_BY_TYPE: Record<string, number[]> = {
  single_working_age: [9, 12, 32, 17, 30],
  single_pensioner: [10, 14, 7, 64, 5],
  couple_working_age: [3, 5, 24, 24, 44],
  couple_pensioner: [4, 5, 4, 80, 7],
  couple_children: [5, 7, 20, 12, 56],
  couple_adult_children: [6, 8, 10, 46, 30],
  lone_parent: [17, 23, 33, 4, 23],
  lone_parent_adult_children: [12, 16, 14, 30, 28],
  sharers: [3, 4, 65, 15, 13],
};

/** Social rents per week, England 2024-25: about £95 (councils) and £110 (housing associations) (DLUHC local authority housing statistics; RSH statistical data return; rounded). */
export const SOCIAL_RENT_WEEKLY = { RENT_FROM_COUNCIL: 95, RENT_FROM_HA: 110 };

/**
 * Council tax: average Band D in England £2,171 in 2024-25 and £2,280 in 2025-26 (MHCLG, Council
 * Tax levels set by local authorities in England); band ratios A-H 6/9 to 18/9 (Local Government
 * Finance Act 1992 s.5); dwellings by band in England about A 24%, B 20%, C 22%, D 16%, E 10%,
 * F 5%, G 3%, H 0.6% (VOA, Council Tax: stock of properties 2024).
 */
export const BAND_D: Record<number, number> = { 2024: 2171, 2025: 2280 };
export const BANDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
export const BAND_SHARES = [24, 20, 22, 16, 10, 5, 3, 0.6];
export const BAND_RATIOS = [6 / 9, 7 / 9, 8 / 9, 1, 11 / 9, 13 / 9, 15 / 9, 18 / 9];

/**
 * Earnings (ASHE 2024, April 2024): median gross annual earnings of full-time employees £37,430;
 * part-time about £13,000 (ASHE table 7, rounded); log-normal dispersion 0.55 (full time) and 0.6
 * (part time), which puts the full-time 90th percentile near ASHE's (about twice the median);
 * the top 2% of full-time earners follow a Pareto tail from £100,000 with index 1.8 (HMRC Survey
 * of Personal Incomes: the top 1% of taxpayers start near £200,000 and hold about 12% of income).
 */
export const EARNINGS = { fullTimeMedian: 37430, fullTimeSigma: 0.55, partTimeMedian: 13000, partTimeSigma: 0.6, tailShare: 0.02, tailMin: 100000, tailAlpha: 1.8 };

/**
 * Employment (ONS Labour Force Survey, 2024): about 75% of people aged 16-64 in work, about 13%
 * of workers self-employed, about a quarter of employees part-time; about 11% of people aged 65+
 * in work; lone parents' employment rate about 65%.
 */
export const EMPLOYMENT = { workingAge: 0.75, selfEmployed: 0.13, partTime: 0.26, pensionAge: 0.11, loneParent: 0.65 };

/** Self-employment profits: median about £14,000 with a wide spread (HMRC Survey of Personal Incomes, self-employment income). */
export const SELF_EMPLOYMENT = { median: 14000, sigma: 1.0 };

/**
 * Other incomes of adults (HMRC Survey of Personal Incomes, shares of taxpayers reporting each
 * income, rounded): dividends about 7% (median £1,500), property income about 5% (median £8,000).
 */
export const DIVIDENDS = { share: 0.07, median: 1500, sigma: 1.8 };
export const PROPERTY = { share: 0.05, median: 8000, sigma: 1.0 };

/**
 * Savings: share of households with savings by tenure (EHS 2023-24: outright owners 85%,
 * mortgagors 71%, private renters 52%, social renters 28%); amounts log-normal, median £12,000
 * (assumption, near the FRS median of savings among savers); interest at 3% (Bank of England
 * effective rates on instant-access deposits, 2024-25, rounded).
 */
export const SAVINGS_SHARE: Record<string, number> = { OWNED_OUTRIGHT: 0.85, OWNED_WITH_MORTGAGE: 0.71, RENT_PRIVATELY: 0.52, RENT_FROM_COUNCIL: 0.28, RENT_FROM_HA: 0.28 };
export const SAVINGS = { median: 12000, sigma: 1.4, interest: 0.03 };

/**
 * Pensions: State Pension age 66; people who reached it from April 2016 (aged 74 or under in
 * 2025) get the new State Pension, 80% of them in full; older pensioners the basic pension plus
 * additional pension (median £1,500 a year, assumption). Private pensions: about 70% of
 * pensioners have one, median about £7,500 a year (DWP Pensioners' Incomes Series, FYE 2023,
 * occupational and personal pension income of recipients, rounded).
 */
export const PENSION = { age: 66, newSchemeMaxAge: 74, fullShare: 0.8, additionalMedian: 1500, privateShare: 0.7, privateMedian: 7500, privateSigma: 0.9 };

/**
 * Weekly State Pension rates (DWP, Benefit and pension rates 2024 to 2025 and 2025 to 2026): new
 * and basic. Disability benefits are given as award categories; the model applies the rates.
 */
export const RATES: Record<number, Record<string, number>> = {
  2024: { newSP: 221.2, basicSP: 169.5 },
  2025: { newSP: 230.25, basicSP: 176.45 },
};

/**
 * Disability (DWP Family Resources Survey 2022 to 2023: 24% of people report a disability;
 * 11% of children, 23% of working-age adults, 45% of pension-age adults). Receipt among disabled
 * people (DWP benefit caseloads, 2024, relative to those counts, rounded): PIP about 45% of
 * disabled working-age adults (daily living standard:enhanced 55:45; mobility none:standard:
 * enhanced 40:30:30), Attendance Allowance about 30% of disabled pensioners (lower:higher 50:50),
 * DLA about 40% of disabled children (care lowest:middle:highest 30:40:30); about half of
 * disabled working-age adults out of work have limited capability for work-related activity
 * (assumption). The award splits are our assumptions, near DWP's caseload shares by award.
 */
export const DISABILITY = { child: 0.11, workingAge: 0.23, pensionAge: 0.45, pip: 0.45, aa: 0.3, dla: 0.4, lcwra: 0.5 };

/**
 * Childcare: about half of working families with a child under 5 pay for childcare, median
 * about £6,000 a year, and a fifth of those with a child aged 5-11, median about £1,500
 * (DfE Childcare and early years survey of parents 2023; Coram Childcare Survey 2024; rounded).
 */
export const CHILDCARE = { under5Share: 0.5, under5Median: 6000, schoolShare: 0.2, schoolMedian: 1500, sigma: 0.6 };
