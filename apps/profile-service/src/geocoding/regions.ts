/**
 * Names people write after the city ("Springfield, IL", "Paris, France", "Leeds, England"),
 * mapped to what the GeoNames city list stores: an ISO-2 country code and, for a few countries,
 * the first-level admin code. Keys are compared after `placeKey` normalisation.
 */

/**
 * Letters that are not a base letter plus a mark, so NFD leaves them alone: people who type
 * without them write "Tromso", "Hafnarfjordur", "Lodz", "Strasse".
 */
const SPECIAL_LETTERS: Record<string, string> = {
  ð: 'd',
  þ: 'th',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ł: 'l',
  đ: 'd',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŋ: 'ng',
  ĸ: 'k',
};
const SPECIAL_LETTER = new RegExp(`[${Object.keys(SPECIAL_LETTERS).join('')}]`, 'g');

/**
 * Lower case, accents and special letters folded, punctuation dropped, spaces collapsed:
 * "St. John's" → "st johns", "TROMSØ" → "tromso", "Hafnarfjörður" → "hafnarfjordur".
 */
export function placeKey(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(SPECIAL_LETTER, (letter) => SPECIAL_LETTERS[letter] ?? letter)
    .replace(/&/g, ' and ')
    .replace(/[.'’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^saint /, 'st ')
    .replace(/^sainte /, 'ste ');
}

/** The other way to type some letters without them: "Aarhus" (Århus), "Zuerich", "Tromsoe". */
const TRANSLITERATIONS: Record<string, string> = { å: 'aa', ø: 'oe', æ: 'ae', ä: 'ae', ö: 'oe', ü: 'ue' };

/** `placeKey` of the transliterated spelling, or null when the text has none of those letters. */
export function transliteratedPlaceKey(text: string): string | null {
  const lower = text.toLowerCase().normalize('NFC');
  if (!/[åøæäöü]/.test(lower)) return null;
  return placeKey(lower.replace(/[åøæäöü]/g, (letter) => TRANSLITERATIONS[letter] ?? letter));
}

/** Country names that Intl.DisplayNames does not give in the form people type. */
export const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'US',
  us: 'US',
  'u s': 'US',
  'u s a': 'US',
  america: 'US',
  'united states of america': 'US',
  'the united states': 'US',
  uk: 'GB',
  'u k': 'GB',
  'great britain': 'GB',
  britain: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  'the netherlands': 'NL',
  holland: 'NL',
  'czech republic': 'CZ',
  turkey: 'TR',
  korea: 'KR',
  'republic of korea': 'KR',
  'russian federation': 'RU',
  uae: 'AE',
  'ivory coast': 'CI',
  'cote divoire': 'CI',
  burma: 'MM',
  myanmar: 'MM',
  macedonia: 'MK',
  'hong kong': 'HK',
  macau: 'MO',
  macao: 'MO',
  swaziland: 'SZ',
  vatican: 'VA',
  bosnia: 'BA',
  'bosnia and herzegovina': 'BA',
  'dr congo': 'CD',
  'democratic republic of the congo': 'CD',
  'republic of the congo': 'CG',
  congo: 'CG',
  'cape verde': 'CV',
  'cabo verde': 'CV',
  'east timor': 'TL',
  palestine: 'PS',
  'trinidad and tobago': 'TT',
  'antigua and barbuda': 'AG',
  'st kitts and nevis': 'KN',
  'st lucia': 'LC',
  'st vincent and the grenadines': 'VC',
  'sao tome and principe': 'ST',
  deutschland: 'DE',
  espana: 'ES',
  italia: 'IT',
  brasil: 'BR',
  mexique: 'MX',
  schweiz: 'CH',
  suisse: 'CH',
  osterreich: 'AT',
  nederland: 'NL',
  polska: 'PL',
  sverige: 'SE',
  norge: 'NO',
  danmark: 'DK',
  suomi: 'FI',
  nippon: 'JP',
};

/** GB is stored with these admin codes; the constituent country narrows the search. */
export const GB_NATIONS: Record<string, string> = {
  england: 'ENG',
  scotland: 'SCT',
  wales: 'WLS',
  'northern ireland': 'NIR',
};

/** US states (and DC) by name and by postal abbreviation; GeoNames stores the abbreviation. */
const US_STATE_NAMES: Record<string, string> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

/** Canadian provinces and Australian states, whose GeoNames admin codes are numbers. */
const CA_PROVINCES: Record<string, string[]> = {
  '01': ['Alberta', 'AB'],
  '02': ['British Columbia', 'BC'],
  '03': ['Manitoba', 'MB'],
  '04': ['New Brunswick', 'NB'],
  '05': ['Newfoundland and Labrador', 'Newfoundland', 'NL'],
  '07': ['Nova Scotia', 'NS'],
  '08': ['Ontario', 'ON'],
  '09': ['Prince Edward Island', 'PE', 'PEI'],
  '10': ['Quebec', 'QC'],
  '11': ['Saskatchewan', 'SK'],
  '12': ['Yukon', 'YT'],
  '13': ['Northwest Territories', 'NT'],
  '14': ['Nunavut', 'NU'],
};
const AU_STATES: Record<string, string[]> = {
  '01': ['Australian Capital Territory', 'ACT'],
  '02': ['New South Wales', 'NSW'],
  '03': ['Northern Territory', 'NT'],
  '04': ['Queensland', 'QLD'],
  '05': ['South Australia', 'SA'],
  '06': ['Tasmania', 'TAS'],
  '07': ['Victoria', 'VIC'],
  '08': ['Western Australia', 'WA'],
};

/** A first-level region: the country it belongs to and its GeoNames admin code. */
export interface Region {
  country: string;
  adminCode: string;
}

function regionTable(): Map<string, Region[]> {
  const table = new Map<string, Region[]>();
  const add = (name: string, region: Region) => {
    const key = placeKey(name);
    table.set(key, [...(table.get(key) ?? []), region]);
  };
  for (const [code, name] of Object.entries(US_STATE_NAMES)) {
    add(code, { country: 'US', adminCode: code });
    add(name, { country: 'US', adminCode: code });
  }
  add('Washington DC', { country: 'US', adminCode: 'DC' });
  for (const [code, names] of Object.entries(CA_PROVINCES)) {
    for (const name of names) add(name, { country: 'CA', adminCode: code });
  }
  for (const [code, names] of Object.entries(AU_STATES)) {
    for (const name of names) add(name, { country: 'AU', adminCode: code });
  }
  for (const [name, code] of Object.entries(GB_NATIONS)) add(name, { country: 'GB', adminCode: code });
  return table;
}

/**
 * The name of a first-level region the geocoder reads back ("Oregon", "Ontario", "England"), or
 * null for countries whose regions it does not know: a place's label names it only then.
 */
export function regionName(country: string, adminCode: string): string | null {
  if (country === 'US') return US_STATE_NAMES[adminCode] ?? null;
  if (country === 'CA') return CA_PROVINCES[adminCode]?.[0] ?? null;
  if (country === 'AU') return AU_STATES[adminCode]?.[0] ?? null;
  if (country === 'GB') {
    const nation = Object.entries(GB_NATIONS).find(([, code]) => code === adminCode)?.[0];
    return nation ? nation[0].toUpperCase() + nation.slice(1) : null;
  }
  return null;
}

/** Regions by normalised name or abbreviation ("il", "illinois", "ontario", "nsw", "england"). */
export const REGIONS: ReadonlyMap<string, Region[]> = regionTable();

/**
 * Country codes by normalised name, alias or ISO-2 code, for the codes the city list uses.
 * English names come from the runtime's ICU data ("France", "United Kingdom", "Côte d’Ivoire").
 */
export function countryTable(codes: Iterable<string>): Map<string, string> {
  const table = new Map<string, string>();
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  for (const code of codes) {
    table.set(placeKey(code), code);
    const name = names.of(code);
    if (name && name !== code) {
      table.set(placeKey(name), code);
      // "Hong Kong SAR China", "Myanmar (Burma)", "Congo - Kinshasa": also their short forms.
      const short = name.replace(/\s+SAR China$/, '').replace(/\s*\(.*\)$/, '');
      table.set(placeKey(short), code);
    }
  }
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) table.set(placeKey(alias), code);
  return table;
}
