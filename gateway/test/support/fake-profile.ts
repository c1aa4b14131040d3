// A recording fake ProfileService (service-kit's) for the gateway's /api/profiles, /api/issues and login tests:
// canned profiles (the canned one with personal contact details, which list answers cannot carry), jobs,
// colleagues, issue areas, claims and authors.
import {
  type Claimant,
  type Colleague,
  type DirectoryCard,
  type IssueArea,
  type Job,
  type PendingClaim,
  type Profile,
  ProfileServiceService,
  type UserIssue,
} from '@rotunda/protos/profile';
import { type FakeAnswer, type RecordingFake, startRecordingFake } from '@rotunda/service-kit/testing';
import { MEMBER } from './fake-auth.ts';

export const DIRECTORY_CARD: DirectoryCard = {
  profile_id: 7,
  first_name: 'Elena',
  last_name: 'Marquez',
  title: 'Legislative Director',
  organization_name: 'Office of Senator Elena Marquez',
  division_name: 'Elk Grove District Office',
  group_type: 'Legislature',
  city: 'Elk Grove',
  state: 'CA',
  verified_employer: true,
};

export const ISSUE_AREA: IssueArea = { issue_id: 4, issue_name: 'Housing' };

export const USER_ISSUE: UserIssue = { id: 31, profile_id: 7, issue_id: 4, issue_area: ISSUE_AREA };

export const JOB: Job = {
  job_id: 15,
  profile_id: 7,
  title: 'Legislative Director',
  organization_id: 12,
  division_id: 3,
  street_address: '1021 O Street',
  suite_number: 'Room 6610',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  start_date: '2021-02-01',
  current_job: true,
  organization: {
    organization_id: 12,
    organization_name: 'Office of Senator Elena Marquez',
    group_type: 'Legislature',
    logo: '/media/logos/2026/11/0b1d3a52-7c1e-4d8a-9a43-1d2f6b1f0a01.png',
  },
  division: {
    division_id: 3,
    division_name: 'Elk Grove District Office',
    division_type: 'District Office',
    active_division: true,
    organization_id: 12,
    city: 'Elk Grove',
    state: 'CA',
  },
};

export const PAST_JOB: Job = {
  job_id: 16,
  profile_id: 7,
  title: 'Legislative Aide',
  organization_id: 14,
  street_address: '1021 O Street',
  city: 'Sacramento',
  state: 'CA',
  zip_code: '95814',
  start_date: '2017-09-01',
  end_date: '2021-01-01',
  current_job: false,
  organization: {
    organization_id: 14,
    organization_name: 'Office of Assemblymember David Okafor',
    group_type: 'Legislature',
  },
  division: undefined,
};

export const PROFILE: Profile = {
  profile_id: 7,
  user_id: MEMBER.sub,
  first_name: 'Marcus',
  last_name: 'Chen',
  work_email: 'member@demo.ca.gov',
  personal_email: 'marcus.home@example.net',
  mobile_phone: '(279) 555-0170',
  other_phone: '(916) 555-0120',
  birthday: '1984-06-02',
  pronouns: 'He/Him',
  profile_picture: '/media/pictures/2026/11/0b1d3a52-7c1e-4d8a-9a43-1d2f6b1f0a09.jpg',
  user_bio: 'Legislative director.',
  linkedin_url: 'https://www.linkedin.com/in/marcuschen-demo',
  claim_pending: false,
  job_experiences: [JOB, PAST_JOB],
  user_issues: [USER_ISSUE],
  claimed_by_caller: false,
  claimant: undefined,
  verified_employer: false,
};

/** Who claims in the canned claims: a member registered under another name. */
export const CLAIMANT: Claimant = {
  user_id: 'claimant-account-1',
  first_name: 'Marcus',
  last_name: 'Chen',
  email: 'm.chen@agency.ca.gov',
  claimed_at: new Date('2026-11-20T17:04:05.123Z'),
};

export const COLLEAGUE: Colleague = {
  profile_id: 9,
  title: 'Chief of Staff',
  city: 'Sacramento',
  state: 'CA',
  division: undefined,
  profile_info: {
    profile_id: 9,
    first_name: 'Imani',
    last_name: 'Okafor',
    work_email: 'imani.okafor@senate.example.org',
    other_phone: '(916) 555-0131',
  },
};

export const PENDING_CLAIM: PendingClaim = {
  claim_id: 41,
  profile_id: 7,
  user_id: MEMBER.sub,
  first_name: 'Marcus',
  last_name: 'Chen',
  work_email: 'member@demo.ca.gov',
  created_at: new Date('2026-11-20T17:04:05.123Z'),
  claimant: CLAIMANT,
};

export const DECIDED_AT = new Date('2026-11-21T09:30:00.000Z');

export const PICTURE_URL = '/media/pictures/2026/11/1c2d3a52-7c1e-4d8a-9a43-1d2f6b1f0a02.jpg';

export type FakeProfile = RecordingFake;

export async function startFakeProfile(): Promise<FakeProfile> {
  const defaults: Record<string, FakeAnswer> = {
    exportMine: async () => ({
      json: JSON.stringify({
        profile: { profile_id: PROFILE.profile_id, first_name: PROFILE.first_name },
        jobs: [{ job_id: 1 }],
        issue_areas: [{ issue_id: 4, issue_name: 'Housing' }],
        claims: [],
      }),
    }),
    listDirectory: async () => ({ profiles: [PROFILE] }),
    searchDirectory: async () => ({ profiles: [DIRECTORY_CARD], total: 41, total_is_lower_bound: false }),
    findUnclaimedMatches: async () => ({ profiles: [{ ...PROFILE, user_id: undefined }] }),
    userCheck: async (_request, context) => ({
      profiles: [{ user_id: context.caller?.userId ?? '', profile_id: 7, claim_pending: false }],
    }),
    createProfile: async () => PROFILE,
    uploadPicture: async () => ({ url: PICTURE_URL }),
    getProfile: async () => PROFILE,
    updateProfile: async () => PROFILE,
    claimProfile: async () => ({
      ...PROFILE,
      user_id: undefined,
      claim_pending: true,
      claim_id: 41,
      claimed_by_caller: true,
    }),
    listPendingClaims: async () => ({ claims: [PENDING_CLAIM] }),
    decideClaim: async (request) => ({
      claim_id: request.claim_id,
      profile_id: 7,
      status: request.decision === 'reject' ? 'rejected' : 'confirmed',
      decided_at: DECIDED_AT,
    }),
    setBio: async () => PROFILE,
    addJob: async () => JOB,
    updateJob: async () => JOB,
    deleteJob: async () => ({}),
    listOrganizationColleagues: async () => ({ colleagues: [COLLEAGUE] }),
    listDivisionColleagues: async () => ({ colleagues: [COLLEAGUE] }),
    listIssueAreas: async () => ({ issue_areas: [ISSUE_AREA, { issue_id: 9, issue_name: 'Water' }] }),
    addIssueArea: async () => ({ issue_area: ISSUE_AREA, created: true }),
    addUserIssue: async () => USER_ISSUE,
    deleteUserIssue: async () => ({}),
    getAuthorByUser: async () => ({
      profile_id: 7,
      user_id: MEMBER.sub,
      first_name: 'Marcus',
      last_name: 'Chen',
      organization_id: 12,
    }),
    getAuthors: async () => ({ authors: [] }),
    listAuthors: async () => ({ authors: [] }),
  };
  return startRecordingFake({
    definition: ProfileServiceService,
    defaults,
    // A streaming method's answer is { profiles }: each is one message of the stream.
    streamed: (answer) => (answer as { profiles: object[] }).profiles,
  });
}
