// The reference tag (spec §7 "Reference"): countries, courses, a course's page templates and a
// lesson's master to print.
import type { HttpHandler } from 'msw';
import {
  getGetCountryMockHandler,
  getListCountriesMockHandler,
  getListCoursePagesMockHandler,
  getListCoursesMockHandler,
  getPrintLessonMasterMockHandler,
} from '../../../../../generated/hooks/reference/reference.msw';
import { answer, contains, notFound, paged, pdf, type WorldAccess } from '../http';

export function referenceResponders({ world }: WorldAccess): HttpHandler[] {
  return [
    answer(getListCountriesMockHandler, ({ request }) => {
      const url = new URL(request.url);
      const q = url.searchParams.get('q');
      return paged(
        url,
        world().countries.filter((country) => contains(country.display_name, q) || country.iso_code.toLowerCase() === q?.trim().toLowerCase()),
      );
    }),
    answer(getGetCountryMockHandler, ({ params }) => world().countries.find((row) => row.iso_code === String(params.isoCode).toUpperCase()) ?? notFound('Country not found')),
    answer(getListCoursesMockHandler, ({ request }) => {
      const url = new URL(request.url);
      return paged(
        url,
        world()
          .courses.map(({ course }) => course)
          .filter((course) => contains(course.name, url.searchParams.get('name'))),
      );
    }),
    answer(getPrintLessonMasterMockHandler, ({ params }) => {
      const lesson = world()
        .courses.find(({ course }) => course.id === params.id)
        ?.course.lessons.find((row) => row.id === params.lessonId);
      return lesson ? pdf(`${lesson.name} master.pdf`, `Master: ${lesson.name}`) : notFound('Lesson not found');
    }),
    answer(getListCoursePagesMockHandler, ({ params }) => world().courses.find(({ course }) => course.id === params.id)?.templates ?? notFound('Course not found')),
  ];
}
