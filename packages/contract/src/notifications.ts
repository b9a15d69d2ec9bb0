// Notifications (Web Push): the account's switch, the devices (push subscriptions) that receive
// them, and what a push message carries to the service worker.
import * as z from 'zod/mini';
import { dateTimeField, FORBIDDEN_TEXT, idField, idParam, INVALID_CHARACTERS, languageField, withExample } from './fields';

/** The longest push endpoint taken (the browsers' push services use well under 1,000 characters). */
export const PUSH_ENDPOINT_MAX = 2048;

/** GET and PATCH /api/notifications/: the account's global switch and the key devices subscribe with. */
export const notificationSettingsSchema = z.object({
  /** Notifications for the account at all (each device subscribes apart). */
  enabled: z.boolean(),
  /** The server's VAPID public key (base64url), the `applicationServerKey` of `pushManager.subscribe`. */
  publicKey: z.string(),
  /** How many devices (browsers) of the account are subscribed. */
  devices: z.int(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const notificationSettingsPatchSchema = z.object({ enabled: z.boolean() });
export type NotificationSettingsPatch = z.infer<typeof notificationSettingsPatchSchema>;

const base64url = (example: string, min: number, max: number) =>
  withExample(z.string().check(z.regex(/^[A-Za-z0-9_-]+={0,2}$/), z.minLength(min), z.maxLength(max)), example);

/**
 * POST /api/notifications/subscriptions/: a browser's `PushSubscription.toJSON()`. The endpoint
 * must be an https address of a push service (never this machine's or a private network's,
 * unless the operator allows it with PUSH_ALLOW_PRIVATE_HOSTS=1).
 */
export const pushSubscriptionRequestSchema = z.object({
  endpoint: withExample(
    z.url().check(
      z.maxLength(PUSH_ENDPOINT_MAX),
      z.refine((value: string) => !FORBIDDEN_TEXT.test(value) && !/\s/.test(value), { params: { code: INVALID_CHARACTERS } }),
    ),
    'https://fcm.googleapis.com/fcm/send/dvt4Xn0lz8Q:APA91bH3',
  ),
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.object({
    /** The browser's P-256 public key (65 bytes, base64url). */
    p256dh: base64url('BOPHsYoJHhch5pK42hgDG0ChJ_AlvFWq5onA26fTuu58rHHbWs2ieqtsfdqKWO6mczlHo_4gmIvVF4NvKM3d538', 80, 100),
    /** The authentication secret (16 bytes, base64url). */
    auth: base64url('12LJYacgIv87op6F2qpoog', 16, 30),
  }),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequestSchema>;

export const pushSubscriptionSchema = z.object({
  id: idField,
  endpoint: z.string(),
  created: dateTimeField,
});
export type PushSubscriptionView = z.infer<typeof pushSubscriptionSchema>;

/** /api/notifications/subscriptions/{id}/ */
export const pushSubscriptionPathSchema = z.object({ id: idParam });

/** `retract`: a message was deleted; the notification showing it closes (nothing of it is shown). */
export const PUSH_KINDS = ['message', 'mention', 'invitation', 'live', 'retract'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** What a push message carries (encrypted, RFC 8291) to the service worker, which shows it. */
export const pushPayloadSchema = z.object({
  kind: z.enum(PUSH_KINDS),
  title: z.string(),
  body: z.string(),
  /** The language of the text (the notification's `lang`). */
  lang: languageField,
  /** Where a click leads: `/chat/12?message=40`, `/rooms/3`. */
  url: z.string(),
  /** One notification per chat or room: a newer one replaces it. */
  tag: z.string(),
  /** The message a notification shows, or a retraction takes back. */
  messageId: z.optional(idField),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
