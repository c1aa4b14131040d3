// Which organizations carry a Cal-Access ID (spec §5, organization form): lobbying firms and the
// associations and unions that file as lobbyist employers.
export const CAL_ACCESS_GROUPS: readonly string[] = ['Lobbyists', 'Associations', 'Unions'];

export const hasCalAccessId = (groupName: string): boolean => CAL_ACCESS_GROUPS.includes(groupName);
