import { notFound } from '../../errors/app-error.ts';

export const notificationNotFound = () => notFound('notification_not_found', 'Invalid notification id.');
