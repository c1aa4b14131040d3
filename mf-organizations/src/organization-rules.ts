// Where an organization's Cal-Access ID links to. Which groups carry a Cal-Access ID is a product rule, in
// @rotunda/rules, as are the social networks and their order (SOCIAL_FIELDS).

/**
 * The Secretary of State's lobbying disclosure site (Cal-Access) keys its pages by the filer id. Lobbying
 * firms (group 'Lobbyists') have a firm page; associations and unions file as lobbyist employers:
 *   https://cal-access.sos.ca.gov/Lobbying/Firms/Detail.aspx?id=<id>
 *   https://cal-access.sos.ca.gov/Lobbying/Employers/Detail.aspx?id=<id>
 */
export function calAccessUrl(groupType: string, filerId: string): string {
  const kind = groupType === 'Lobbyists' ? 'Firms' : 'Employers';
  return `https://cal-access.sos.ca.gov/Lobbying/${kind}/Detail.aspx?id=${encodeURIComponent(filerId.trim())}`;
}
