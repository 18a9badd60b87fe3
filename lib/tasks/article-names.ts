// The file names an article's companions may have in QMP-Bench. Tasks name an ACS article by its DOI
// suffix (`jacs.5b10819`), while the authors' files use ACS's manuscript code (`ja5b10819.json`,
// `ja5b10819.tex`); other articles' files use the task's name exactly. Candidates are tried in order
// and all of them are reported when none exists.

/** ACS journal DOI codes → the two-letter manuscript prefix of their file names. */
const ACS_PREFIX: Readonly<Record<string, string>> = {
  jacs: 'ja',
  inorgchem: 'ic',
  jpca: 'jp',
  jpcb: 'jp',
  jpcc: 'jp',
  jpclett: 'jz',
  jctc: 'ct',
  chemrev: 'cr',
  accounts: 'ar',
  organomet: 'om',
  joc: 'jo',
  orglett: 'ol',
  nanolett: 'nl',
  jmedchem: 'jm',
  biochem: 'bi',
  langmuir: 'la',
  macromol: 'ma',
  chemmater: 'cm',
  acscatal: 'cs',
  jcim: 'ci',
  jced: 'je',
  est: 'es',
};

/** `<journal>.<manuscript id>` as in ACS DOIs: `jacs.5b10819`, `inorgchem.7b01234`. */
const ACS_DOI_SUFFIX = /^([a-z]+)\.(\d{1,2}[a-z]\d{3,6})$/i;

/** Stems to try for an article's files, the task's own name first, without duplicates. */
export function articleFileStems(pdfName: string): string[] {
  const stems = [pdfName];
  const m = ACS_DOI_SUFFIX.exec(pdfName);
  if (m) {
    const journal = m[1]!.toLowerCase();
    const id = m[2]!;
    const prefix = ACS_PREFIX[journal];
    if (prefix) stems.push(`${prefix}${id}`);
    stems.push(`${journal.slice(0, 2)}${id}`, id);
  }
  return [...new Set(stems)];
}
