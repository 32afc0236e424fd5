/** Record ids as the spec writes them: hexadecimal, so two spellings in other letter cases name one record. */

/** Whether two record ids name the same record: compared without letter case. */
export function sameId(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && (a === b || a.toLowerCase() === b.toLowerCase());
}
