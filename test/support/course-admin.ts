import { randomBytes } from 'node:crypto';
import { runImport } from '../../shared/domain/import/run-import.ts';
import { createTestUser, type TestUser } from './api.ts';

/**
 * A user who administers one course (space role `admin` in a course, imported) and holds no global role: the
 * "course admin" row of the permission matrices of routes that are not about courses.
 */
export async function createCourseOwnAdmin(): Promise<TestUser> {
  const admin = await createTestUser();
  const tag = randomBytes(4).toString('hex');
  await runImport({
    courses: [{ ref: 'c', title: `Course ${tag}`, slug: `course-${tag}`, admins: [admin.username] }],
  });
  return admin;
}
