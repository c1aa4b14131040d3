// The profile service's rules for job history (docs/product.md#5-validation-rules create job, add-job,
// edit-job, job deletion): the profile's owner, or a contributor while unclaimed, adds and edits jobs at
// organizations and divisions the org service knows; a job is deleted only when it is not current and is not
// the profile's only one.
import { type Caller, fieldChanges, notFound, requireMember } from '@rotunda/service-kit';
import {
  failedPrecondition,
  lostRace,
  MESSAGES,
  ownershipOrThrow,
  requireEditor,
  validId,
} from './access.ts';
import type { PeopleDirectory } from './directory.ts';
import { curationOf, removedFields, shownJob, shownSavedJob } from './history.ts';
import type { Job } from './model.ts';
import type { OrgCopy } from './org-copy.ts';
import type { JobRepository, ProfileRepository } from './ports.ts';
import { cleanJobFields, type JobInput } from './rules.ts';

export interface JobServiceDependencies {
  profiles: Pick<ProfileRepository, 'findOwnership'>;
  jobs: JobRepository;
  orgs: Pick<OrgCopy, 'requirePlace'>;
  /** The people directory's index: it holds current titles and places. */
  directory: Pick<PeopleDirectory, 'profilesChanged'>;
}

export function createJobService({ profiles, jobs, orgs, directory }: JobServiceDependencies) {
  const jobOrThrow = async (jobId: number) => {
    const found = validId(jobId) ? await jobs.findJob(jobId) : null;
    if (!found) throw notFound(MESSAGES.jobNotFound);
    return found;
  };

  /** A write that found the job or its profile changed under it: not found, or no longer the caller's. */
  const afterLostRace = async (jobId: number) => {
    const found = await jobs.findJob(jobId);
    return found ? lostRace(found.owner) : notFound(MESSAGES.jobNotFound);
  };

  return {
    async addJob(caller: Caller | undefined, profileId: number, input: JobInput): Promise<Job> {
      const member = requireMember(caller);
      const owner = await ownershipOrThrow(profiles, profileId);
      requireEditor(member, owner);
      const fields = cleanJobFields(input);
      const place = await orgs.requirePlace(fields.organizationId, fields.divisionId);
      const job = await jobs.addJob(
        profileId,
        owner.userId,
        fields,
        curationOf(member, owner, 'job_added', fieldChanges({}, shownJob(fields, place))),
      );
      if (!job) throw lostRace(await profiles.findOwnership(profileId));
      await directory.profilesChanged([profileId]);
      return job;
    },

    /** A job, as a repeated keyed add answers it once its row was made. */
    async getJob(caller: Caller | undefined, jobId: number): Promise<Job> {
      requireMember(caller);
      return (await jobOrThrow(jobId)).job;
    },

    /** Replaces the job's fields with the edit modal's, under add-job's rules; the job stays on its profile. */
    async updateJob(caller: Caller | undefined, jobId: number, input: JobInput): Promise<Job> {
      const member = requireMember(caller);
      const { job: before, owner } = await jobOrThrow(jobId);
      requireEditor(member, owner);
      const fields = cleanJobFields(input);
      const place = await orgs.requirePlace(fields.organizationId, fields.divisionId);
      const changes = fieldChanges(shownSavedJob(before), shownJob(fields, place));
      const job = await jobs.updateJob(
        jobId,
        owner.userId,
        fields,
        curationOf(member, owner, 'job_edited', changes),
      );
      if (!job) throw await afterLostRace(jobId);
      await directory.profilesChanged([job.profileId]);
      return job;
    },

    async deleteJob(caller: Caller | undefined, jobId: number): Promise<void> {
      const member = requireMember(caller);
      const { job, owner } = await jobOrThrow(jobId);
      requireEditor(member, owner);
      const deleted = await jobs.deleteJob(
        jobId,
        owner.userId,
        (job, jobsOnProfile) => {
          if (job.currentJob) throw failedPrecondition(MESSAGES.currentJobDelete);
          if (jobsOnProfile <= 1) throw failedPrecondition(MESSAGES.onlyJobDelete);
        },
        curationOf(member, owner, 'job_deleted', removedFields(shownSavedJob(job))),
      );
      if (!deleted) throw await afterLostRace(jobId);
      await directory.profilesChanged([job.profileId]);
    },
  };
}

export type JobService = ReturnType<typeof createJobService>;
