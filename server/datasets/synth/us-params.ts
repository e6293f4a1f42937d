/**
 * Parameters of the synthetic US population, each with the published statistic it comes from
 * (docs/datasets.md). Money is at 2024 levels; other years are moved by NOMINAL_GROWTH.
 */

/** US households, 2024: about 132.2 million (Census Bureau, America's Families and Living Arrangements: 2024, table HH-1). */
export const US_HOUSEHOLDS_2024 = 132.2e6;
/** Household growth per year: about 0.8% (the same table: 131.4 million in 2023). */
export const HOUSEHOLD_GROWTH = 0.008;
/** Nominal growth of money amounts per year away from 2024 (assumption, near the 2023-25 growth of wages). */
export const NOMINAL_GROWTH = 0.035;

/**
 * Household types, shares of households (Census, America's Families and Living Arrangements 2024,
 * tables HH-1 and H2, rounded): married couples 47% (about 40% of them with children under 18),
 * other family households 17% (mostly single parents), people living alone 29%, other non-family
 * households (roommates) 7%. The split by age is ours.
 */
export const HOUSEHOLD_TYPES: { type: string; share: number }[] = [
  { type: 'single_working_age', share: 17 },
  { type: 'single_senior', share: 12 },
  { type: 'married_no_children', share: 17 },
  { type: 'married_senior', share: 11 },
  { type: 'married_children', share: 19 },
  { type: 'single_parent', share: 10 },
  { type: 'other_family', share: 7 },
  { type: 'roommates', share: 7 },
];

/**
 * Married couples aged 40+ with an adult child (18-34) at home: about a third of 18-34 year olds
 * live with their parents (Census, AFLA 2024, table AD-1), which is about this share of such couples.
 */
export const ADULT_CHILD_SHARE = 0.3;

/** Children under 18 per family with children: 1: 41%, 2: 38%, 3: 15%, 4+: 6% (Census, AFLA 2024, table FM-3, rounded). */
export const CHILDREN_COUNT = [0, 41, 38, 15, 5, 1];

/**
 * States by FIPS code with their population (millions), used as shares of households (Census
 * Bureau, State Population Totals, Vintage 2023, rounded to 0.01 million).
 */
export const STATES: [number, number][] = [
  [1, 5.11], [2, 0.73], [4, 7.43], [5, 3.07], [6, 38.97], [8, 5.88], [9, 3.62], [10, 1.03], [11, 0.68], [12, 22.61],
  [13, 11.03], [15, 1.44], [16, 1.96], [17, 12.55], [18, 6.86], [19, 3.21], [20, 2.94], [21, 4.53], [22, 4.57], [23, 1.4],
  [24, 6.18], [25, 7.0], [26, 10.04], [27, 5.74], [28, 2.94], [29, 6.2], [30, 1.13], [31, 1.98], [32, 3.19], [33, 1.4],
  [34, 9.29], [35, 2.11], [36, 19.57], [37, 10.84], [38, 0.78], [39, 11.79], [40, 4.05], [41, 4.23], [42, 12.96], [44, 1.1],
  [45, 5.37], [46, 0.92], [47, 7.13], [48, 30.5], [49, 3.42], [50, 0.65], [51, 8.72], [53, 7.81], [54, 1.77], [55, 5.91], [56, 0.58],
];

/** States whose rents are well above the national median (ACS 2023 median gross rent by state): a factor on rents. */
export const HIGH_COST_STATES = new Map<number, number>([[6, 1.35], [11, 1.35], [15, 1.4], [25, 1.3], [36, 1.2], [34, 1.3], [53, 1.25], [24, 1.2], [8, 1.2], [9, 1.1]]);
export const LOW_COST_STATES = new Set([1, 5, 21, 22, 28, 38, 40, 46, 54, 56, 31, 19, 20]);

/**
 * Tenure: homeownership about 65.7% (Census, Housing Vacancies and Homeownership, 2024), about 40%
 * of owner-occupied homes without a mortgage (ACS 2023); more owners among older and married
 * households (the same sources by age of householder). Order: RENTED, OWNED_OUTRIGHT, OWNED_WITH_MORTGAGE.
 */
export const TENURES = ['RENTED', 'OWNED_OUTRIGHT', 'OWNED_WITH_MORTGAGE'];
export const TENURE_BY_TYPE: Record<string, number[]> = {
  single_working_age: [55, 12, 33],
  single_senior: [26, 50, 24],
  married_no_children: [22, 22, 56],
  married_senior: [10, 62, 28],
  married_children: [25, 10, 65],
  single_parent: [60, 8, 32],
  other_family: [40, 25, 35],
  roommates: [80, 5, 15],
};

/** Rent: median gross rent $1,406 a month (ACS 2023), log-normal with s.d. of the log 0.45. Real estate taxes of owners: median about $3,000 a year (ACS 2023), s.d. 0.7. */
export const RENT = { monthlyMedian: 1406, sigma: 0.45 };
export const PROPERTY_TAX = { median: 3000, sigma: 0.7 };

/**
 * Work (BLS, Current Population Survey 2024): employment-population ratio of people 25-54 about
 * 80.7%, of 16-64 about 72%, of 65+ about 19%; about a sixth of workers part-time; about 6% of
 * workers self-employed (unincorporated and incorporated, rounded). Full-time earnings: median
 * weekly $1,143 in the second quarter of 2024 (BLS, Usual weekly earnings), log-normal with s.d.
 * 0.6 and a Pareto tail from $250,000 (index 1.6) for the top 2% (IRS Statistics of Income: top
 * incomes); part-time median about $20,000 a year.
 */
export const WORK = { primeAge: 0.81, workingAge: 0.72, senior: 0.19, partTime: 0.17, selfEmployed: 0.06 };
export const EARNINGS = { fullTimeMedian: 1143 * 52, sigma: 0.6, partTimeMedian: 20000, partTimeSigma: 0.7, tailShare: 0.02, tailMin: 250000, tailAlpha: 1.6 };
export const SELF_EMPLOYMENT = { median: 25000, sigma: 1.0 };

/**
 * Social Security (SSA, Monthly Statistical Snapshot, 2024): average retired-worker benefit about
 * $1,900 a month, paid to most people from 62 (about 40% by 64, 90% by 67, 97% from 70); disabled
 * workers' benefit about $1,540 a month, to about 4% of people aged 25-64. Private pensions: about
 * 35% of people 65+, median about $12,000 a year (Census, Income in the United States 2023, rounded).
 */
export const SOCIAL_SECURITY = { retiredMonthly: 1900, sigma: 0.3, disabledMonthly: 1540, disabledShare: 0.04 };
export const PENSION = { share: 0.35, median: 12000, sigma: 0.9 };

/**
 * Investment income (IRS Statistics of Income, individual returns 2022, shares of returns,
 * rounded): taxable interest about 40% of adults (median $300), qualified dividends about 18%
 * (median $1,500). Unemployment compensation: about 3% of workers in a year, median $6,000
 * (DOL, Unemployment Insurance data 2024, rounded).
 */
export const INTEREST = { share: 0.4, median: 300, sigma: 1.6 };
export const DIVIDENDS = { share: 0.18, median: 1500, sigma: 1.8 };
export const UNEMPLOYMENT = { share: 0.03, median: 6000, sigma: 0.6 };

/** Disability (ACS 2023: 13.9% of the civilian population; about 4% of children, 11% of 18-64, 33% of 65+); blindness about 2% (vision difficulty, ACS). */
export const DISABILITY = { child: 0.04, workingAge: 0.11, senior: 0.33, blind: 0.02 };

/** Child care (Census, Child Care Costs, SIPP 2023): about 30% of families with a child under 13 pay, median about $7,000 a year. */
export const CHILDCARE = { share: 0.3, median: 7000, sigma: 0.7 };
