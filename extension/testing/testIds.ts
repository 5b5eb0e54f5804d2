/** Test ids come from the domain: a config's URI, and `<configUri>#<caseId>` for its cases. */

export function caseTestId(configUri: string, caseId: string): string {
  return `${configUri}#${caseId}`;
}

/** The config URI and case id of a case's test id; undefined for a config's own id. */
export function parseCaseTestId(id: string): { readonly configUri: string; readonly caseId: string } | undefined {
  const hash = id.indexOf('#');
  return hash < 0 ? undefined : { configUri: id.slice(0, hash), caseId: id.slice(hash + 1) };
}
