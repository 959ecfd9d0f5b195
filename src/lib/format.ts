// How dates, times and ids read on screen: en-US, relative times like "5 minutes ago" (spec §9).
import { formatDistance } from 'date-fns';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** "Mar 5, 2024"; empty for a missing or unreadable value. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

/** "Mar 5, 2024, 10:00 AM" (local time); empty for a missing or unreadable value. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormat.format(date);
}

/** "5 minutes ago" (en-US); empty for a missing or unreadable value. */
export function formatRelativeTime(value: string | null | undefined, now: Date = new Date()): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return formatDistance(date, now, { addSuffix: true });
}

/** The first characters of an id, as lists show long ids. */
export function shortId(id: string, length = 6): string {
  return id.slice(0, length);
}
