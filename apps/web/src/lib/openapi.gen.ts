// Generated from the server's OpenAPI document by openapi-typescript: do not edit.
// Regenerate with `npm run api-types -w @parla/web` (apps/web/scripts/api-types.mjs);
// `npm run api-types -w @parla/web -- --check` fails when this file is stale.

export interface paths {
    "/api/status/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The state of the server: database, live pushes, translation and speech */
        get: operations["getStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/translation/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the translator can do: the languages each language reaches, and whether it writes tones */
        get: operations["getTranslationAbilities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/speech/tones/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tones a reader may choose, with their labels in the request’s language */
        get: operations["listTones"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/login/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in: tokens in the body and in HttpOnly cookies */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/logout/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sign out (the spec’s GET form) */
        get: operations["logoutByGet"];
        put?: never;
        /** Sign out: the session (refresh token family) ends */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/registration/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register; an activation link is e-mailed (the same answer for an address already taken) */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/registration/resend-email/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** E-mail the activation link again */
        post: operations["resendActivation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/registration/verify-email/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activate the account with the key from the e-mail */
        post: operations["verifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/token/refresh/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the refresh token (from the body or the cookie) for a new access token */
        post: operations["refreshToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/token/verify/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check that a token is valid and its session active */
        post: operations["verifyToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/password/change/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the password (the current one needed unless signed in within 5 minutes); other sessions end */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/password/reset/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** E-mail a password reset link (the same answer for an unknown address) */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/password/reset/confirm/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with the reset link’s uid and token; every session ends */
        post: operations["confirmPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/user/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user */
        get: operations["getUser"];
        /**
         * Set the full name and the avatar (JSON, or a form with the image file)
         * @description multipart/form-data (fullName, readingLanguage, avatarImage file) or JSON (fullName, readingLanguage, avatarImage: null to remove).
         */
        put: operations["replaceUser"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the full name or the avatar (JSON, or a form with the image file)
         * @description multipart/form-data (fullName, readingLanguage, avatarImage file) or JSON (fullName, readingLanguage, avatarImage: null to remove).
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/api/accounts/privacy/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What others see of the user: read receipts, presence */
        get: operations["getPrivacy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Share or hide read receipts (off: see nobody’s) and presence
         * @description Only the settings given change. Read receipts off: the others no longer see how far the user read, and the user sees nobody’s; presence off: the user looks offline, with no “last seen”. Open chats follow at once.
         */
        patch: operations["updatePrivacy"];
        trace?: never;
    };
    "/api/rooms/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user’s rooms: invitations first, then the most recently active */
        get: operations["listRooms"];
        put?: never;
        /** Create a room; its creator is its OWNER */
        post: operations["createRoom"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rooms/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A room, with the reader’s role and state */
        get: operations["getRoom"];
        /** Set a room’s title, description, languages and domain (OWNER) */
        put: operations["replaceRoom"];
        post?: never;
        /** Delete a room, its transcript and recordings (OWNER) */
        delete: operations["deleteRoom"];
        options?: never;
        head?: never;
        /** Change a room’s title, description, languages or domain (OWNER) */
        patch: operations["updateRoom"];
        trace?: never;
    };
    "/api/rooms/{id}/state/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Start, end or reopen the room’s call (OWNER; allowed changes only)
         * @description Owner only. Allowed: 3001→3002 (go live), 3002→3003 (end), 3003→3002 (reopen), 3001→3003 (cancel); anything else is a 400 on state.
         */
        put: operations["setRoomState"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Start, end or reopen the room’s call (OWNER; allowed changes only)
         * @description Owner only. Allowed: 3001→3002 (go live), 3002→3003 (end), 3003→3002 (reopen), 3001→3003 (cancel); anything else is a 400 on state.
         */
        patch: operations["updateRoomState"];
        trace?: never;
    };
    "/api/rooms/{roomId}/participant/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reader’s participation: alias, language, voice, tone, and a LiveKit token while Live */
        get: operations["getOwnParticipation"];
        /** Set how the reader is shown and listens */
        put: operations["replaceOwnParticipation"];
        post?: never;
        /** Leave the room, or decline its invitation */
        delete: operations["leaveRoom"];
        options?: never;
        head?: never;
        /** Change how the reader is shown or listens */
        patch: operations["updateOwnParticipation"];
        trace?: never;
    };
    "/api/rooms/{roomId}/participant/accept/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept the invitation to the room
         * @description Accepts the invitation to the room (declining is leaving: DELETE on the participation).
         */
        post: operations["acceptRoomInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rooms/{roomId}/participants/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The room’s participants and invited people, searchable */
        get: operations["listParticipants"];
        put?: never;
        /**
         * Invite someone by e-mail address (OWNER)
         * @description Invites someone by e-mail address: the same answer whether or not the address has an account; they take part once they accept.
         */
        post: operations["inviteParticipant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rooms/{roomId}/participants/multi_delete/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove several participants, all or none (OWNER) */
        post: operations["removeParticipants"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rooms/{roomId}/participants/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a participant’s role; making someone OWNER hands the room over (OWNER) */
        put: operations["setParticipantRole"];
        post?: never;
        /** Remove a participant, or withdraw an invitation (OWNER) */
        delete: operations["removeParticipant"];
        options?: never;
        head?: never;
        /** Change a participant’s role; making someone OWNER hands the room over (OWNER) */
        patch: operations["updateParticipantRole"];
        trace?: never;
    };
    "/api/rooms/{roomId}/segments/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The transcript, oldest first, as the reader hears it */
        get: operations["listSegments"];
        put?: never;
        /**
         * Upload one utterance (while Live): transcribed, translated and spoken for every listener
         * @description multipart/form-data with one file `audio`: one utterance, WAV, Ogg or WebM (checked by content), at most 30 s and 2 MB, while the room is Live.
         */
        post: operations["uploadSegment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rooms/{roomId}/segments/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One utterance as the reader hears it */
        get: operations["getSegment"];
        /** Correct the transcript (speaker) or choose the reader’s tone for it */
        put: operations["replaceSegment"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Correct the transcript (speaker) or choose the reader’s tone for it */
        patch: operations["updateSegment"];
        trace?: never;
    };
    "/api/rooms/{roomId}/transcript/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The whole transcript in the reader’s language, as text or SubRip subtitles
         * @description The whole transcript in the caller’s language: text/plain or SubRip (.srt).
         */
        get: operations["downloadTranscript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rooms/{roomId}/audio/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A recording or a voice of the room (participants only)
         * @description A recording or a synthesised voice of this room (participants only).
         */
        get: operations["getAudio"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rooms/{roomId}/glossary/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The room’s glossary: terms translation renders as required or keeps, and the names it protects */
        get: operations["getRoomGlossary"];
        put?: never;
        /** Add a term to the room’s glossary (OWNER) */
        post: operations["addRoomGlossaryEntry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rooms/{roomId}/glossary/apply/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Translate the room’s recent utterances again with the glossary as it is now (OWNER) */
        post: operations["applyRoomGlossary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rooms/{roomId}/glossary/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a term from the room’s glossary (OWNER) */
        delete: operations["removeRoomGlossaryEntry"];
        options?: never;
        head?: never;
        /** Change a term of the room’s glossary (OWNER) */
        patch: operations["updateRoomGlossaryEntry"];
        trace?: never;
    };
    "/api/rooms/{roomId}/segments/{id}/rendering/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Correct one’s rendering of an utterance for everyone who hears it in the same language and tone
         * @description Replaces the text of the caller’s rendering of an utterance (their language and tone) for everyone hearing it so, and speaks it again; the machine’s text is kept in `correction.machine`. Sending the machine’s text takes the correction back.
         */
        put: operations["correctSegmentRendering"];
        post?: never;
        /** Take a correction of one’s rendering back (or, as the owner, every listener’s): the machine’s text again */
        delete: operations["restoreSegmentRendering"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/unread/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What is new for the reader in all their chats: unread messages and the chats holding them */
        get: operations["getUnread"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/search/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search the reader’s chats (or one) in their own language: renderings and originals */
        get: operations["searchMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The user’s chats by last activity; the first page starts with pending invitations */
        get: operations["listChats"];
        put?: never;
        /** Create a chat; its creator is its OWNER */
        post: operations["createChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A chat, with the reader’s role and state */
        get: operations["getChat"];
        /** Set a chat’s title, description and languages (OWNER) */
        put: operations["replaceChat"];
        post?: never;
        /** Delete a chat and its messages (OWNER) */
        delete: operations["deleteChat"];
        options?: never;
        head?: never;
        /** Change a chat’s title, description or languages (OWNER) */
        patch: operations["updateChat"];
        trace?: never;
    };
    "/api/chat/{groupChatId}/member/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reader’s membership: nickname, language, tone, last read message */
        get: operations["getOwnMembership"];
        /** Set how the reader is shown and reads */
        put: operations["replaceOwnMembership"];
        post?: never;
        /** Leave the chat, or decline its invitation */
        delete: operations["leaveChat"];
        options?: never;
        head?: never;
        /** Change how the reader is shown or reads, or where they stopped reading */
        patch: operations["updateOwnMembership"];
        trace?: never;
    };
    "/api/chat/{groupChatId}/member/accept/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept the invitation to the chat
         * @description Accepts the invitation to the chat (declining is leaving: DELETE on the membership).
         */
        post: operations["acceptChatInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/members/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chat’s members and invited people, searchable */
        get: operations["listMembers"];
        put?: never;
        /**
         * Invite someone by e-mail address (OWNER, ADMIN)
         * @description Invites someone by e-mail address: the same answer whether or not the address has an account; they are a member once they accept.
         */
        post: operations["inviteMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/members/multi_delete/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove several members, all or none (OWNER, ADMIN) */
        post: operations["removeMembers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/members/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a member’s role; making someone OWNER hands the chat over (OWNER) */
        put: operations["setMemberRole"];
        post?: never;
        /** Remove a member, or withdraw an invitation (OWNER, ADMIN) */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        /** Change a member’s role; making someone OWNER hands the chat over (OWNER) */
        patch: operations["updateMemberRole"];
        trace?: never;
    };
    "/api/chat/{groupChatId}/messages/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Messages, newest first, each in the reader’s language and tone */
        get: operations["listMessages"];
        put?: never;
        /**
         * Post a message (once per clientId); it is translated for every reader
         * @description Posts a message; the same clientId from the same member answers 200 with the message already stored.
         */
        post: operations["postMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/messages/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One message in the reader’s language and tone */
        get: operations["getMessage"];
        /** Edit one’s own message; it is translated again */
        put: operations["replaceMessage"];
        post?: never;
        /** Delete a message for everyone (its sender, or an OWNER or ADMIN) */
        delete: operations["deleteMessage"];
        options?: never;
        head?: never;
        /** Edit one’s own message; it is translated again */
        patch: operations["updateMessage"];
        trace?: never;
    };
    "/api/chat/{groupChatId}/attachments/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a picture or a file (multipart `file`) to attach to one’s next message
         * @description multipart/form-data with one file `file` (at most 10 MB). Pictures are re-encoded (WebP) with a thumbnail; programs and scripts are refused. Send its id in `attachments` of your next message.
         */
        post: operations["uploadAttachment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/attachments/{id}/{variant}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An attached file, or a picture’s thumbnail (members only)
         * @description The file (a picture or a PDF inline, under a sandbox CSP; anything else as a download), or a picture’s thumbnail: members only.
         */
        get: operations["getAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/glossary/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chat’s glossary: terms translation renders as required or keeps, and the names it protects */
        get: operations["getChatGlossary"];
        put?: never;
        /** Add a term to the chat’s glossary (OWNER, ADMIN) */
        post: operations["addChatGlossaryEntry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/glossary/apply/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Translate the chat’s recent messages again with the glossary as it is now (OWNER, ADMIN) */
        post: operations["applyChatGlossary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/glossary/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a term from the chat’s glossary (OWNER, ADMIN) */
        delete: operations["removeChatGlossaryEntry"];
        options?: never;
        head?: never;
        /** Change a term of the chat’s glossary (OWNER, ADMIN) */
        patch: operations["updateChatGlossaryEntry"];
        trace?: never;
    };
    "/api/chat/{groupChatId}/messages/{id}/rendering/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Correct one’s rendering of a message for every member who reads in the same language and tone
         * @description Replaces the text of the caller’s rendering (their language and tone) for every member reading so; the machine’s text is kept in `correction.machine`. Sending the machine’s text takes the correction back.
         */
        put: operations["correctMessageRendering"];
        post?: never;
        /** Take a correction of one’s rendering back (or, as an owner or admin, every reader’s): the machine’s text again */
        delete: operations["restoreMessageRendering"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/messages/{id}/reactions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A message’s emoji reactions and who gave them */
        get: operations["listReactions"];
        put?: never;
        /**
         * React to a message with an emoji (once per emoji and member)
         * @description Reacts with one emoji: 201 with the message’s reactions, or 200 when the member had given this emoji already.
         */
        post: operations["addReaction"];
        /** Take one’s own reaction back (?emoji=) */
        delete: operations["removeReaction"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/messages/{id}/versions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The earlier texts of an edited message, each in the reader’s language and tone */
        get: operations["listMessageVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/receipts/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How far the other members read (“seen by”), for a reader who shares their own */
        get: operations["listReceipts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/presence/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who of the chat’s members is online, away or offline, and when they were last seen */
        get: operations["listPresence"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/pins/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The chat’s pinned messages in the reader’s language and tone, the latest pinned first */
        get: operations["listPins"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{groupChatId}/messages/{id}/pin/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Pin a message to the chat for every member (OWNER, ADMIN)
         * @description Pins the message (no body): 200 with the message as the reader reads it; pinned already, nothing changes. 400 `too_many_pins` past LIMITS.pinsPerChat.
         */
        put: operations["pinMessage"];
        post?: never;
        /** Unpin a message (OWNER, ADMIN) */
        delete: operations["unpinMessage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account’s notification switch, its subscribed devices and the key a device subscribes with */
        get: operations["getNotificationSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Turn the account’s notifications on or off (every device) */
        patch: operations["updateNotificationSettings"];
        trace?: never;
    };
    "/api/notifications/subscriptions/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register this browser’s push subscription (an https push service) for the account
         * @description Takes `PushSubscription.toJSON()`: 201 for a new device, 200 for one already known (a browser that signed in to another account moves here). The endpoint must be https and not on this machine or a private network.
         */
        post: operations["subscribePush"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notifications/subscriptions/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Stop notifications to one of the account’s devices */
        delete: operations["unsubscribePush"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description A language code (ISO 639-1): one of the 57 languages of the interface and of translation.
         * @example es
         * @enum {string}
         */
        LanguageInput: "af" | "ar" | "az" | "be" | "bg" | "bs" | "ca" | "cs" | "cy" | "da" | "de" | "el" | "en" | "es" | "et" | "fa" | "fi" | "fr" | "gl" | "he" | "hi" | "hr" | "hu" | "hy" | "id" | "is" | "it" | "ja" | "kk" | "kn" | "ko" | "lt" | "lv" | "mi" | "mk" | "mr" | "ms" | "ne" | "nl" | "no" | "pl" | "pt" | "ro" | "ru" | "sk" | "sl" | "sr" | "sv" | "sw" | "ta" | "th" | "tl" | "tr" | "uk" | "ur" | "vi" | "zh";
        /**
         * @description The tone a reader reads or hears in: DEFAULT (keep the sender's own register), ACADEMIC (precise, scholarly), APPRECIATIVE (warm and thankful), ANALYTICAL (logical and exact), CASUAL (relaxed, everyday), CHEERFUL (upbeat and bright), DESCRIPTIVE (vivid and detailed), FORMAL (polite and formal (formal address where the language has it)), FRIENDLY (kind and approachable), HUMOROUS (light and witty, without changing the facts), INFORMATIVE (clear and factual), INSPIRATIONAL (encouraging and uplifting), INTIMATE (close and personal), PERSUASIVE (convincing), SERIOUS (earnest and sober).
         * @example FRIENDLY
         * @enum {string}
         */
        ToneInput: "DEFAULT" | "ACADEMIC" | "APPRECIATIVE" | "ANALYTICAL" | "CASUAL" | "CHEERFUL" | "DESCRIPTIVE" | "FORMAL" | "FRIENDLY" | "HUMOROUS" | "INFORMATIVE" | "INSPIRATIONAL" | "INTIMATE" | "PERSUASIVE" | "SERIOUS";
        /**
         * @description The field a room is about: translations use its usual terms. DEFAULT: none in particular.
         * @example DEFAULT
         * @enum {string}
         */
        DomainInput: "DEFAULT" | "ACCOUNTING" | "ART" | "AUTO" | "BUSINESS" | "EDUCATION" | "ENGINEERING" | "ENTERTAINMENT" | "ENVIRONMENT" | "FASHION" | "FINANCE" | "FNB" | "GOVERNMENT" | "HEALTHCARE" | "HOSPITALITY" | "IT" | "LAW" | "MANUFACTURING" | "MARKETING" | "MUSIC" | "NON_PROFIT" | "REAL_ESTATE" | "RETAIL" | "SCIENCE" | "SPORTS" | "TRANSPORT" | "TRAVEL";
        /**
         * @description A role in a chat: OWNER edits and deletes the chat and changes roles (setting another member to OWNER hands the chat over); ADMIN adds and removes MEMBERs; everyone reads and posts. 2001 OWNER, 2002 ADMIN, 2003 MEMBER.
         * @enum {number}
         */
        ChatRoleInput: 2001 | 2002 | 2003;
        /**
         * @description A role in a room: OWNER edits the room, changes its state and manages participants (setting another to OWNER hands the room over); MEMBER speaks and listens. 1001 OWNER, 1002 MEMBER.
         * @enum {number}
         */
        RoomRoleInput: 1001 | 1002;
        /**
         * @description A room’s state: START before the call, LIVE during it (utterances are taken, LiveKit tokens issued), END after it. Allowed changes: START→LIVE, LIVE→END, END→LIVE, START→END. 3001 START, 3002 LIVE, 3003 END.
         * @enum {number}
         */
        RoomStateInput: 3001 | 3002 | 3003;
        /**
         * @description A language code (ISO 639-1): one of the 57 languages of the interface and of translation.
         * @example es
         * @enum {string}
         */
        Language: "af" | "ar" | "az" | "be" | "bg" | "bs" | "ca" | "cs" | "cy" | "da" | "de" | "el" | "en" | "es" | "et" | "fa" | "fi" | "fr" | "gl" | "he" | "hi" | "hr" | "hu" | "hy" | "id" | "is" | "it" | "ja" | "kk" | "kn" | "ko" | "lt" | "lv" | "mi" | "mk" | "mr" | "ms" | "ne" | "nl" | "no" | "pl" | "pt" | "ro" | "ru" | "sk" | "sl" | "sr" | "sv" | "sw" | "ta" | "th" | "tl" | "tr" | "uk" | "ur" | "vi" | "zh";
        /**
         * @description The tone a reader reads or hears in: DEFAULT (keep the sender's own register), ACADEMIC (precise, scholarly), APPRECIATIVE (warm and thankful), ANALYTICAL (logical and exact), CASUAL (relaxed, everyday), CHEERFUL (upbeat and bright), DESCRIPTIVE (vivid and detailed), FORMAL (polite and formal (formal address where the language has it)), FRIENDLY (kind and approachable), HUMOROUS (light and witty, without changing the facts), INFORMATIVE (clear and factual), INSPIRATIONAL (encouraging and uplifting), INTIMATE (close and personal), PERSUASIVE (convincing), SERIOUS (earnest and sober).
         * @example FRIENDLY
         * @enum {string}
         */
        Tone: "DEFAULT" | "ACADEMIC" | "APPRECIATIVE" | "ANALYTICAL" | "CASUAL" | "CHEERFUL" | "DESCRIPTIVE" | "FORMAL" | "FRIENDLY" | "HUMOROUS" | "INFORMATIVE" | "INSPIRATIONAL" | "INTIMATE" | "PERSUASIVE" | "SERIOUS";
        /**
         * @description The field a room is about: translations use its usual terms. DEFAULT: none in particular.
         * @example DEFAULT
         * @enum {string}
         */
        Domain: "DEFAULT" | "ACCOUNTING" | "ART" | "AUTO" | "BUSINESS" | "EDUCATION" | "ENGINEERING" | "ENTERTAINMENT" | "ENVIRONMENT" | "FASHION" | "FINANCE" | "FNB" | "GOVERNMENT" | "HEALTHCARE" | "HOSPITALITY" | "IT" | "LAW" | "MANUFACTURING" | "MARKETING" | "MUSIC" | "NON_PROFIT" | "REAL_ESTATE" | "RETAIL" | "SCIENCE" | "SPORTS" | "TRANSPORT" | "TRAVEL";
        /**
         * @description A role in a chat: OWNER edits and deletes the chat and changes roles (setting another member to OWNER hands the chat over); ADMIN adds and removes MEMBERs; everyone reads and posts. 2001 OWNER, 2002 ADMIN, 2003 MEMBER.
         * @enum {number}
         */
        ChatRole: 2001 | 2002 | 2003;
        /**
         * @description A role in a room: OWNER edits the room, changes its state and manages participants (setting another to OWNER hands the room over); MEMBER speaks and listens. 1001 OWNER, 1002 MEMBER.
         * @enum {number}
         */
        RoomRole: 1001 | 1002;
        /**
         * @description A room’s state: START before the call, LIVE during it (utterances are taken, LiveKit tokens issued), END after it. Allowed changes: START→LIVE, LIVE→END, END→LIVE, START→END. 3001 START, 3002 LIVE, 3003 END.
         * @enum {number}
         */
        RoomState: 3001 | 3002 | 3003;
        /**
         * @description invited: added, not accepted yet (sees the name and the invitation only); joined: accepted.
         * @enum {string}
         */
        MemberState: "invited" | "joined";
        ErrorBody: {
            /** @enum {string} */
            type: "validation_error" | "client_error" | "server_error";
            errors: {
                code: string;
                detail: string;
                attr: string | null;
            }[];
        };
    };
    responses: {
        /** @description Refused as sent (`validation_error`): each error names its field in `attr` (`non_field_errors` for the body as a whole). */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Not signed in, or the token is invalid, expired or of an ended session (`not_authenticated`, `token_not_valid`). */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description A cookie session without the right X-XSRF-TOKEN header (`csrf_failed`), or a role that does not allow this (`permission_denied`). */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description No such object, or not one of the caller’s (strangers, those who left and those only invited learn nothing of it). */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Over a rate limit (`throttled`); try again after Retry-After seconds. */
        TooManyRequests: {
            headers: {
                /** @description Seconds until the limit allows another request. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The server failed (`server_error`); the body says nothing more, the server’s log has the request id. */
        ServerError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "degraded";
                        version: string;
                        /** @enum {string} */
                        database: "ok" | "degraded" | "off";
                        /** @enum {string} */
                        realtime: "ok" | "degraded" | "off";
                        /** @enum {string} */
                        translation: "ok" | "degraded" | "off";
                        /** @enum {string} */
                        speech: "ok" | "degraded" | "off";
                    };
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
            /** @description OK. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok" | "degraded";
                        version: string;
                        /** @enum {string} */
                        database: "ok" | "degraded" | "off";
                        /** @enum {string} */
                        realtime: "ok" | "degraded" | "off";
                        /** @enum {string} */
                        translation: "ok" | "degraded" | "off";
                        /** @enum {string} */
                        speech: "ok" | "degraded" | "off";
                    };
                };
            };
        };
    };
    getTranslationAbilities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        provider: "openai" | "apertium" | "none";
                        supportsTone: boolean;
                        reach: {
                            [key: string]: components["schemas"]["Language"][];
                        } | null;
                        transcribes?: components["schemas"]["Language"][] | null;
                    };
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    listTones: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        value: components["schemas"]["Tone"];
                        label: string;
                    }[];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ana@example.com
                     */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    /** @description The session cookies: access_token and refresh_token (HttpOnly, SameSite=Lax), and XSRF-TOKEN, to echo in the X-XSRF-TOKEN header of writes (cleared on sign-out). */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access: string;
                        refresh: string;
                        user: {
                            /** @example 42 */
                            id: number;
                            email: string;
                            fullName: string | null;
                            avatarImage: string | null;
                            /** @enum {string|null} */
                            readingLanguage: "af" | "ar" | "az" | "be" | "bg" | "bs" | "ca" | "cs" | "cy" | "da" | "de" | "el" | "en" | "es" | "et" | "fa" | "fi" | "fr" | "gl" | "he" | "hi" | "hr" | "hu" | "hy" | "id" | "is" | "it" | "ja" | "kk" | "kn" | "ko" | "lt" | "lv" | "mi" | "mk" | "mr" | "ms" | "ne" | "nl" | "no" | "pl" | "pt" | "ro" | "ru" | "sk" | "sl" | "sr" | "sv" | "sw" | "ta" | "th" | "tl" | "tr" | "uk" | "ur" | "vi" | "zh" | null;
                        };
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        accessExpiration: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        refreshExpiration: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    logoutByGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    /** @description The session cookies: access_token and refresh_token (HttpOnly, SameSite=Lax), and XSRF-TOKEN, to echo in the X-XSRF-TOKEN header of writes (cleared on sign-out). */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    refresh?: string;
                } | null;
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    /** @description The session cookies: access_token and refresh_token (HttpOnly, SameSite=Lax), and XSRF-TOKEN, to echo in the X-XSRF-TOKEN header of writes (cleared on sign-out). */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ana@example.com
                     */
                    email: string;
                    /** @example violet-harbour-42 */
                    password1: string;
                    /** @example violet-harbour-42 */
                    password2: string;
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Ana García
                     */
                    fullName: string;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    resendActivation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ana@example.com
                     */
                    email: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    verifyEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    key: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["ServerError"];
        };
    };
    refreshToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    refresh?: string;
                } | null;
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    /** @description The session cookies: access_token and refresh_token (HttpOnly, SameSite=Lax), and XSRF-TOKEN, to echo in the X-XSRF-TOKEN header of writes (cleared on sign-out). */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        access: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        accessExpiration: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        refreshExpiration: string;
                        refresh?: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["ServerError"];
        };
    };
    verifyToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["ServerError"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example violet-harbour-42 */
                    newPassword1: string;
                    /** @example violet-harbour-42 */
                    newPassword2: string;
                    oldPassword?: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ana@example.com
                     */
                    email: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    confirmPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example violet-harbour-42 */
                    newPassword1: string;
                    /** @example violet-harbour-42 */
                    newPassword2: string;
                    uid: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        detail: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["ServerError"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        email: string;
                        fullName: string | null;
                        avatarImage: string | null;
                        /** @enum {string|null} */
                        readingLanguage: "af" | "ar" | "az" | "be" | "bg" | "bs" | "ca" | "cs" | "cy" | "da" | "de" | "el" | "en" | "es" | "et" | "fa" | "fi" | "fr" | "gl" | "he" | "hi" | "hr" | "hu" | "hy" | "id" | "is" | "it" | "ja" | "kk" | "kn" | "ko" | "lt" | "lv" | "mi" | "mk" | "mr" | "ms" | "ne" | "nl" | "no" | "pl" | "pt" | "ro" | "ru" | "sk" | "sl" | "sr" | "sv" | "sw" | "ta" | "th" | "tl" | "tr" | "uk" | "ur" | "vi" | "zh" | null;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["ServerError"];
        };
    };
    replaceUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Ana García
                     */
                    fullName: string;
                    /**
                     * @description null or "" removes the avatar.
                     * @enum {string|null}
                     */
                    avatarImage?: "" | null;
                    /** @enum {string|null} */
                    readingLanguage?: "" | "af" | "ar" | "az" | "be" | "bg" | "bs" | "ca" | "cs" | "cy" | "da" | "de" | "el" | "en" | "es" | "et" | "fa" | "fi" | "fr" | "gl" | "he" | "hi" | "hr" | "hu" | "hy" | "id" | "is" | "it" | "ja" | "kk" | "kn" | "ko" | "lt" | "lv" | "mi" | "mk" | "mr" | "ms" | "ne" | "nl" | "no" | "pl" | "pt" | "ro" | "ru" | "sk" | "sl" | "sr" | "sv" | "sw" | "ta" | "th" | "tl" | "tr" | "uk" | "ur" | "vi" | "zh" | null;
                };
                "multipart/form-data": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Ana García
                     */
                    fullName: string;
                    /**
                     * Format: binary
                     * @description png, jpeg, webp, gif (checked by content), at most 5 MB; re-encoded to a 256 px square. Empty: removes the avatar.
                     */
                    avatarImage?: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        email: string;
                        fullName: string | null;
                        avatarImage: string | null;
                        /** @enum {string|null} */
                        readingLanguage: "af" | "ar" | "az" | "be" | "bg" | "bs" | "ca" | "cs" | "cy" | "da" | "de" | "el" | "en" | "es" | "et" | "fa" | "fi" | "fr" | "gl" | "he" | "hi" | "hr" | "hu" | "hy" | "id" | "is" | "it" | "ja" | "kk" | "kn" | "ko" | "lt" | "lv" | "mi" | "mk" | "mr" | "ms" | "ne" | "nl" | "no" | "pl" | "pt" | "ro" | "ru" | "sk" | "sl" | "sr" | "sv" | "sw" | "ta" | "th" | "tl" | "tr" | "uk" | "ur" | "vi" | "zh" | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Ana García
                     */
                    fullName?: string;
                    /**
                     * @description null or "" removes the avatar.
                     * @enum {string|null}
                     */
                    avatarImage?: "" | null;
                    /** @enum {string|null} */
                    readingLanguage?: "" | "af" | "ar" | "az" | "be" | "bg" | "bs" | "ca" | "cs" | "cy" | "da" | "de" | "el" | "en" | "es" | "et" | "fa" | "fi" | "fr" | "gl" | "he" | "hi" | "hr" | "hu" | "hy" | "id" | "is" | "it" | "ja" | "kk" | "kn" | "ko" | "lt" | "lv" | "mi" | "mk" | "mr" | "ms" | "ne" | "nl" | "no" | "pl" | "pt" | "ro" | "ru" | "sk" | "sl" | "sr" | "sv" | "sw" | "ta" | "th" | "tl" | "tr" | "uk" | "ur" | "vi" | "zh" | null;
                };
                "multipart/form-data": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Ana García
                     */
                    fullName?: string;
                    /**
                     * Format: binary
                     * @description png, jpeg, webp, gif (checked by content), at most 5 MB; re-encoded to a 256 px square. Empty: removes the avatar.
                     */
                    avatarImage?: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        email: string;
                        fullName: string | null;
                        avatarImage: string | null;
                        /** @enum {string|null} */
                        readingLanguage: "af" | "ar" | "az" | "be" | "bg" | "bs" | "ca" | "cs" | "cy" | "da" | "de" | "el" | "en" | "es" | "et" | "fa" | "fi" | "fr" | "gl" | "he" | "hi" | "hr" | "hu" | "hy" | "id" | "is" | "it" | "ja" | "kk" | "kn" | "ko" | "lt" | "lv" | "mi" | "mk" | "mr" | "ms" | "ne" | "nl" | "no" | "pl" | "pt" | "ro" | "ru" | "sk" | "sl" | "sr" | "sv" | "sw" | "ta" | "th" | "tl" | "tr" | "uk" | "ur" | "vi" | "zh" | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getPrivacy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        readReceipts: boolean;
                        showPresence: boolean;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["ServerError"];
        };
    };
    updatePrivacy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    readReceipts?: boolean;
                    showPresence?: boolean;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        readReceipts: boolean;
                        showPresence: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    listRooms: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: {
                            /** @example 42 */
                            id: number;
                            title: string;
                            description: string | null;
                            languages: components["schemas"]["Language"][];
                            domain: components["schemas"]["Domain"];
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            modified: string;
                            state: components["schemas"]["RoomState"];
                            roomRole: components["schemas"]["RoomRole"];
                            memberState: components["schemas"]["MemberState"];
                            invitedBy: string | null;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["ServerError"];
        };
    };
    createRoom: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Weekly planning
                     */
                    title: string;
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks.
                     * @example Plans for the week, read in every language.
                     */
                    description?: string | null;
                    /**
                     * @description One or more distinct language codes; the first is the default for new members.
                     * @example [
                     *       "en",
                     *       "es"
                     *     ]
                     */
                    languages?: components["schemas"]["LanguageInput"][];
                    /** @default DEFAULT */
                    domain?: components["schemas"]["DomainInput"];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        title: string;
                        description: string | null;
                        languages: components["schemas"]["Language"][];
                        domain: components["schemas"]["Domain"];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                        state: components["schemas"]["RoomState"];
                        roomRole: components["schemas"]["RoomRole"];
                        memberState: components["schemas"]["MemberState"];
                        invitedBy: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getRoom: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        title: string;
                        description: string | null;
                        languages: components["schemas"]["Language"][];
                        domain: components["schemas"]["Domain"];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                        state: components["schemas"]["RoomState"];
                        roomRole: components["schemas"]["RoomRole"];
                        memberState: components["schemas"]["MemberState"];
                        invitedBy: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    replaceRoom: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Weekly planning
                     */
                    title: string;
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks.
                     * @example Plans for the week, read in every language.
                     */
                    description?: string | null;
                    /**
                     * @description One or more distinct language codes; the first is the default for new members.
                     * @example [
                     *       "en",
                     *       "es"
                     *     ]
                     */
                    languages?: components["schemas"]["LanguageInput"][];
                    /** @default DEFAULT */
                    domain?: components["schemas"]["DomainInput"];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        title: string;
                        description: string | null;
                        languages: components["schemas"]["Language"][];
                        domain: components["schemas"]["Domain"];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                        state: components["schemas"]["RoomState"];
                        roomRole: components["schemas"]["RoomRole"];
                        memberState: components["schemas"]["MemberState"];
                        invitedBy: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    deleteRoom: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateRoom: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Weekly planning
                     */
                    title?: string;
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks.
                     * @example Plans for the week, read in every language.
                     */
                    description?: string | null;
                    /**
                     * @description One or more distinct language codes; the first is the default for new members.
                     * @example [
                     *       "en",
                     *       "es"
                     *     ]
                     */
                    languages?: components["schemas"]["LanguageInput"][];
                    domain?: components["schemas"]["DomainInput"];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        title: string;
                        description: string | null;
                        languages: components["schemas"]["Language"][];
                        domain: components["schemas"]["Domain"];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                        state: components["schemas"]["RoomState"];
                        roomRole: components["schemas"]["RoomRole"];
                        memberState: components["schemas"]["MemberState"];
                        invitedBy: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    setRoomState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    state: components["schemas"]["RoomStateInput"];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        title: string;
                        description: string | null;
                        languages: components["schemas"]["Language"][];
                        domain: components["schemas"]["Domain"];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                        state: components["schemas"]["RoomState"];
                        roomRole: components["schemas"]["RoomRole"];
                        memberState: components["schemas"]["MemberState"];
                        invitedBy: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateRoomState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    state: components["schemas"]["RoomStateInput"];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        title: string;
                        description: string | null;
                        languages: components["schemas"]["Language"][];
                        domain: components["schemas"]["Domain"];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                        state: components["schemas"]["RoomState"];
                        roomRole: components["schemas"]["RoomRole"];
                        memberState: components["schemas"]["MemberState"];
                        invitedBy: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getOwnParticipation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        alias: string;
                        roomRole: components["schemas"]["RoomRole"];
                        language: components["schemas"]["Language"];
                        lkToken: string | null;
                        lkUrl: string | null;
                        maleVoice: boolean;
                        tone: components["schemas"]["Tone"];
                        memberState: components["schemas"]["MemberState"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    replaceOwnParticipation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Ana (design)
                     */
                    alias: string;
                    language: components["schemas"]["LanguageInput"];
                    maleVoice: boolean;
                    tone: components["schemas"]["ToneInput"];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        alias: string;
                        roomRole: components["schemas"]["RoomRole"];
                        language: components["schemas"]["Language"];
                        lkToken: string | null;
                        lkUrl: string | null;
                        maleVoice: boolean;
                        tone: components["schemas"]["Tone"];
                        memberState: components["schemas"]["MemberState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    leaveRoom: {
        parameters: {
            query?: {
                permanent?: boolean;
            };
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateOwnParticipation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Ana (design)
                     */
                    alias?: string;
                    language?: components["schemas"]["LanguageInput"];
                    maleVoice?: boolean;
                    tone?: components["schemas"]["ToneInput"];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        alias: string;
                        roomRole: components["schemas"]["RoomRole"];
                        language: components["schemas"]["Language"];
                        lkToken: string | null;
                        lkUrl: string | null;
                        maleVoice: boolean;
                        tone: components["schemas"]["Tone"];
                        memberState: components["schemas"]["MemberState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    acceptRoomInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        alias: string;
                        roomRole: components["schemas"]["RoomRole"];
                        language: components["schemas"]["Language"];
                        lkToken: string | null;
                        lkUrl: string | null;
                        maleVoice: boolean;
                        tone: components["schemas"]["Tone"];
                        memberState: components["schemas"]["MemberState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    listParticipants: {
        parameters: {
            query?: {
                pageIndex?: number;
                pageSize?: number;
                /** @description Text on one line: no control characters, bidirectional overrides or byte order marks. */
                q?: string;
            };
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: {
                            /** @example 42 */
                            id: number;
                            user: string;
                            roomRole: components["schemas"]["RoomRole"];
                            alias: string;
                            avatarImage: string | null;
                            memberState: components["schemas"]["MemberState"];
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    inviteParticipant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ana@example.com
                     */
                    user: string;
                    roomRole: components["schemas"]["RoomRoleInput"];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        user: string;
                        roomRole: components["schemas"]["RoomRole"];
                        alias: string;
                        avatarImage: string | null;
                        memberState: components["schemas"]["MemberState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    removeParticipants: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @example [
                     *       41,
                     *       42
                     *     ]
                     */
                    ids: number[];
                    /** @default false */
                    permanent?: boolean;
                };
            };
        };
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    setParticipantRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    roomRole: components["schemas"]["RoomRoleInput"];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        user: string;
                        roomRole: components["schemas"]["RoomRole"];
                        alias: string;
                        avatarImage: string | null;
                        memberState: components["schemas"]["MemberState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    removeParticipant: {
        parameters: {
            query?: {
                permanent?: boolean;
            };
            header?: never;
            path: {
                roomId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateParticipantRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    roomRole: components["schemas"]["RoomRoleInput"];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        user: string;
                        roomRole: components["schemas"]["RoomRole"];
                        alias: string;
                        avatarImage: string | null;
                        memberState: components["schemas"]["MemberState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    listSegments: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: {
                            /** @example 42 */
                            id: number;
                            audioFile: string | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                            isMe: boolean;
                            language: components["schemas"]["Language"];
                            rawSegment: {
                                /** @example 42 */
                                id: number;
                                language: components["schemas"]["Language"];
                                transcript: string;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-25T09:30:00+00:00
                                 */
                                created: string;
                            } | null;
                            speaker: {
                                /** @example 42 */
                                id: number;
                                alias: string;
                                language: components["schemas"]["Language"];
                                roomRole: components["schemas"]["RoomRole"];
                                tone: components["schemas"]["Tone"];
                                maleVoice: boolean;
                            };
                            tone: components["schemas"]["Tone"];
                            transcript: string;
                            transcriptDiff: string[];
                            /** @enum {string} */
                            transcription: "pending" | "done" | "failed" | "none";
                            /** @enum {string} */
                            translation: "pending" | "done" | "failed" | "none";
                            /** @enum {string} */
                            speech: "pending" | "done" | "failed" | "none";
                            edited: boolean;
                            duration: number;
                            correction: {
                                by: {
                                    /** @example 42 */
                                    id: number;
                                    alias: string;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-25T09:30:00+00:00
                                 */
                                at: string;
                                machine: string;
                            } | null;
                            missedTerms: string[];
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    uploadSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description One utterance: WAV, Ogg or WebM (checked by content), at most 30 s and 2 MB.
                     */
                    audio: string;
                    /** Format: uuid */
                    clientId?: string;
                    spokenAgoMs?: number;
                };
            };
        };
        responses: {
            /** @description Already stored (the same clientId): what was stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        audioFile: string | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawSegment: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            transcript: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        speaker: {
                            /** @example 42 */
                            id: number;
                            alias: string;
                            language: components["schemas"]["Language"];
                            roomRole: components["schemas"]["RoomRole"];
                            tone: components["schemas"]["Tone"];
                            maleVoice: boolean;
                        };
                        tone: components["schemas"]["Tone"];
                        transcript: string;
                        transcriptDiff: string[];
                        /** @enum {string} */
                        transcription: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        speech: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        duration: number;
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                alias: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                    };
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        audioFile: string | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawSegment: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            transcript: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        speaker: {
                            /** @example 42 */
                            id: number;
                            alias: string;
                            language: components["schemas"]["Language"];
                            roomRole: components["schemas"]["RoomRole"];
                            tone: components["schemas"]["Tone"];
                            maleVoice: boolean;
                        };
                        tone: components["schemas"]["Tone"];
                        transcript: string;
                        transcriptDiff: string[];
                        /** @enum {string} */
                        transcription: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        speech: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        duration: number;
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                alias: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        audioFile: string | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawSegment: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            transcript: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        speaker: {
                            /** @example 42 */
                            id: number;
                            alias: string;
                            language: components["schemas"]["Language"];
                            roomRole: components["schemas"]["RoomRole"];
                            tone: components["schemas"]["Tone"];
                            maleVoice: boolean;
                        };
                        tone: components["schemas"]["Tone"];
                        transcript: string;
                        transcriptDiff: string[];
                        /** @enum {string} */
                        transcription: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        speech: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        duration: number;
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                alias: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    replaceSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    tone?: components["schemas"]["ToneInput"];
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Good morning, everyone.
                     */
                    transcript?: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        audioFile: string | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawSegment: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            transcript: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        speaker: {
                            /** @example 42 */
                            id: number;
                            alias: string;
                            language: components["schemas"]["Language"];
                            roomRole: components["schemas"]["RoomRole"];
                            tone: components["schemas"]["Tone"];
                            maleVoice: boolean;
                        };
                        tone: components["schemas"]["Tone"];
                        transcript: string;
                        transcriptDiff: string[];
                        /** @enum {string} */
                        transcription: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        speech: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        duration: number;
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                alias: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateSegment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    tone?: components["schemas"]["ToneInput"];
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Good morning, everyone.
                     */
                    transcript?: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        audioFile: string | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawSegment: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            transcript: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        speaker: {
                            /** @example 42 */
                            id: number;
                            alias: string;
                            language: components["schemas"]["Language"];
                            roomRole: components["schemas"]["RoomRole"];
                            tone: components["schemas"]["Tone"];
                            maleVoice: boolean;
                        };
                        tone: components["schemas"]["Tone"];
                        transcript: string;
                        transcriptDiff: string[];
                        /** @enum {string} */
                        transcription: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        speech: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        duration: number;
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                alias: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    downloadTranscript: {
        parameters: {
            query?: {
                format?: "txt" | "srt";
            };
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transcript as a file: txt or srt. */
            200: {
                headers: {
                    /** @description attachment, with the file name */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                    "application/x-subrip": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getAudio: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (Ogg Opus, MP3, WAV or WebM). Range requests are answered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "audio/*": string;
                };
            };
            /** @description The part a Range asked for. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "audio/*": string;
                };
            };
            /** @description Files kept in an S3-compatible bucket (S3_BUCKET): a redirect to a signed URL of the file that expires in 5 minutes. */
            302: {
                headers: {
                    /** @description The signed URL */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description A Range past the end of the file. */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            500: components["responses"]["ServerError"];
        };
    };
    getRoomGlossary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            /** @example 42 */
                            id: number;
                            term: string;
                            language: components["schemas"]["Language"];
                            keep: boolean;
                            renderings: {
                                language: components["schemas"]["Language"];
                                text: string;
                            }[];
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            modified: string;
                        }[];
                        names: string[];
                        mayEdit: boolean;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    addRoomGlossaryEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example standup
                     */
                    term: string;
                    language: components["schemas"]["LanguageInput"];
                    /** @default false */
                    keep?: boolean;
                    /** @default [] */
                    renderings?: {
                        language: components["schemas"]["LanguageInput"];
                        /**
                         * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                         * @example reunión diaria
                         */
                        text: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        term: string;
                        language: components["schemas"]["Language"];
                        keep: boolean;
                        renderings: {
                            language: components["schemas"]["Language"];
                            text: string;
                        }[];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    applyRoomGlossary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queued: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    removeRoomGlossaryEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateRoomGlossaryEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example standup
                     */
                    term?: string;
                    language?: components["schemas"]["LanguageInput"];
                    keep?: boolean;
                    renderings?: {
                        language: components["schemas"]["LanguageInput"];
                        /**
                         * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                         * @example reunión diaria
                         */
                        text: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        term: string;
                        language: components["schemas"]["Language"];
                        keep: boolean;
                        renderings: {
                            language: components["schemas"]["Language"];
                            text: string;
                        }[];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    correctSegmentRendering: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roomId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Buenos días a todos.
                     */
                    transcript: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        audioFile: string | null;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawSegment: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            transcript: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        speaker: {
                            /** @example 42 */
                            id: number;
                            alias: string;
                            language: components["schemas"]["Language"];
                            roomRole: components["schemas"]["RoomRole"];
                            tone: components["schemas"]["Tone"];
                            maleVoice: boolean;
                        };
                        tone: components["schemas"]["Tone"];
                        transcript: string;
                        transcriptDiff: string[];
                        /** @enum {string} */
                        transcription: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        /** @enum {string} */
                        speech: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        duration: number;
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                alias: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    restoreSegmentRendering: {
        parameters: {
            query?: {
                everyone?: boolean;
            };
            header?: never;
            path: {
                roomId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getUnread: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        messages: number;
                        chats: number;
                        mentions: number;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["ServerError"];
        };
    };
    searchMessages: {
        parameters: {
            query: {
                /** @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank. */
                q: string;
                chatId?: number;
                limit?: number;
                toId?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next: string | null;
                        previous: string | null;
                        results: {
                            chat: {
                                /** @example 42 */
                                id: number;
                                title: string;
                            };
                            message: {
                                /** @example 42 */
                                id: number;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-25T09:30:00+00:00
                                 */
                                created: string;
                                isMe: boolean;
                                language: components["schemas"]["Language"];
                                rawMessage: {
                                    /** @example 42 */
                                    id: number;
                                    language: components["schemas"]["Language"];
                                    content: string;
                                    /**
                                     * Format: date-time
                                     * @example 2026-11-25T09:30:00+00:00
                                     */
                                    created: string;
                                } | null;
                                sender: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                    language: components["schemas"]["Language"];
                                    chatRole: components["schemas"]["ChatRole"];
                                    tone: components["schemas"]["Tone"];
                                    avatarImage: string | null;
                                };
                                tone: components["schemas"]["Tone"];
                                content: string;
                                /** @enum {string} */
                                translation: "pending" | "done" | "failed" | "none";
                                edited: boolean;
                                mentions: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                }[];
                                replyTo: {
                                    /** @example 42 */
                                    id: number;
                                    sender: {
                                        /** @example 42 */
                                        id: number;
                                        nickName: string;
                                    };
                                    language: components["schemas"]["Language"];
                                    content: string;
                                    translated: boolean;
                                } | null;
                                reactions: {
                                    emoji: string;
                                    members: {
                                        /** @example 42 */
                                        id: number;
                                        nickName: string;
                                    }[];
                                }[];
                                attachments: {
                                    /** @example 42 */
                                    id: number;
                                    /** @enum {string} */
                                    kind: "image" | "file";
                                    name: string;
                                    size: number;
                                    contentType: string;
                                    width: number | null;
                                    height: number | null;
                                    url: string;
                                    thumbnailUrl: string | null;
                                }[];
                                correction: {
                                    by: {
                                        /** @example 42 */
                                        id: number;
                                        nickName: string;
                                    } | null;
                                    /**
                                     * Format: date-time
                                     * @example 2026-11-25T09:30:00+00:00
                                     */
                                    at: string;
                                    machine: string;
                                } | null;
                                missedTerms: string[];
                                pinned: {
                                    by: {
                                        /** @example 42 */
                                        id: number;
                                        nickName: string;
                                    } | null;
                                    /**
                                     * Format: date-time
                                     * @example 2026-11-25T09:30:00+00:00
                                     */
                                    at: string;
                                } | null;
                            };
                            highlights: string[];
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    listChats: {
        parameters: {
            query?: {
                lastModified?: string;
                lastId?: number;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next: string | null;
                        previous: string | null;
                        results: {
                            /** @example 42 */
                            id: number;
                            title: string;
                            description: string | null;
                            languages: components["schemas"]["Language"][];
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            modified: string;
                            chatRole: components["schemas"]["ChatRole"];
                            memberState: components["schemas"]["MemberState"];
                            muted: boolean;
                            invitedBy: string | null;
                            lastMessage: {
                                /** @example 42 */
                                id: number;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-25T09:30:00+00:00
                                 */
                                created: string;
                                isMe: boolean;
                                language: components["schemas"]["Language"];
                                rawMessage: {
                                    /** @example 42 */
                                    id: number;
                                    language: components["schemas"]["Language"];
                                    content: string;
                                    /**
                                     * Format: date-time
                                     * @example 2026-11-25T09:30:00+00:00
                                     */
                                    created: string;
                                } | null;
                                sender: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                    language: components["schemas"]["Language"];
                                    chatRole: components["schemas"]["ChatRole"];
                                    tone: components["schemas"]["Tone"];
                                    avatarImage: string | null;
                                };
                                tone: components["schemas"]["Tone"];
                                content: string;
                                /** @enum {string} */
                                translation: "pending" | "done" | "failed" | "none";
                                edited: boolean;
                                mentions: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                }[];
                                replyTo: {
                                    /** @example 42 */
                                    id: number;
                                    sender: {
                                        /** @example 42 */
                                        id: number;
                                        nickName: string;
                                    };
                                    language: components["schemas"]["Language"];
                                    content: string;
                                    translated: boolean;
                                } | null;
                                reactions: {
                                    emoji: string;
                                    members: {
                                        /** @example 42 */
                                        id: number;
                                        nickName: string;
                                    }[];
                                }[];
                                attachments: {
                                    /** @example 42 */
                                    id: number;
                                    /** @enum {string} */
                                    kind: "image" | "file";
                                    name: string;
                                    size: number;
                                    contentType: string;
                                    width: number | null;
                                    height: number | null;
                                    url: string;
                                    thumbnailUrl: string | null;
                                }[];
                                correction: {
                                    by: {
                                        /** @example 42 */
                                        id: number;
                                        nickName: string;
                                    } | null;
                                    /**
                                     * Format: date-time
                                     * @example 2026-11-25T09:30:00+00:00
                                     */
                                    at: string;
                                    machine: string;
                                } | null;
                                missedTerms: string[];
                                pinned: {
                                    by: {
                                        /** @example 42 */
                                        id: number;
                                        nickName: string;
                                    } | null;
                                    /**
                                     * Format: date-time
                                     * @example 2026-11-25T09:30:00+00:00
                                     */
                                    at: string;
                                } | null;
                            } | null;
                            unreadCount: number;
                            unreadMentions: number;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    createChat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Weekly planning
                     */
                    title: string;
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks.
                     * @example Plans for the week, read in every language.
                     */
                    description?: string | null;
                    /**
                     * @description One or more distinct language codes; the first is the default for new members.
                     * @example [
                     *       "en",
                     *       "es"
                     *     ]
                     */
                    languages?: components["schemas"]["LanguageInput"][];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        title: string;
                        description: string | null;
                        languages: components["schemas"]["Language"][];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                        chatRole: components["schemas"]["ChatRole"];
                        memberState: components["schemas"]["MemberState"];
                        muted: boolean;
                        invitedBy: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        title: string;
                        description: string | null;
                        languages: components["schemas"]["Language"][];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                        chatRole: components["schemas"]["ChatRole"];
                        memberState: components["schemas"]["MemberState"];
                        muted: boolean;
                        invitedBy: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    replaceChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Weekly planning
                     */
                    title: string;
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks.
                     * @example Plans for the week, read in every language.
                     */
                    description?: string | null;
                    /**
                     * @description One or more distinct language codes; the first is the default for new members.
                     * @example [
                     *       "en",
                     *       "es"
                     *     ]
                     */
                    languages?: components["schemas"]["LanguageInput"][];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        title: string;
                        description: string | null;
                        languages: components["schemas"]["Language"][];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                        chatRole: components["schemas"]["ChatRole"];
                        memberState: components["schemas"]["MemberState"];
                        muted: boolean;
                        invitedBy: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    deleteChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Weekly planning
                     */
                    title?: string;
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks.
                     * @example Plans for the week, read in every language.
                     */
                    description?: string | null;
                    /**
                     * @description One or more distinct language codes; the first is the default for new members.
                     * @example [
                     *       "en",
                     *       "es"
                     *     ]
                     */
                    languages?: components["schemas"]["LanguageInput"][];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        title: string;
                        description: string | null;
                        languages: components["schemas"]["Language"][];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                        chatRole: components["schemas"]["ChatRole"];
                        memberState: components["schemas"]["MemberState"];
                        muted: boolean;
                        invitedBy: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getOwnMembership: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        lastReadMessage: number | null;
                        nickName: string;
                        language: components["schemas"]["Language"];
                        chatRole: components["schemas"]["ChatRole"];
                        tone: components["schemas"]["Tone"];
                        memberState: components["schemas"]["MemberState"];
                        muted: boolean;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    replaceOwnMembership: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Ana
                     */
                    nickName: string;
                    language: components["schemas"]["LanguageInput"];
                    tone: components["schemas"]["ToneInput"];
                    /** @example 42 */
                    lastReadMessage?: number;
                    muted?: boolean;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        lastReadMessage: number | null;
                        nickName: string;
                        language: components["schemas"]["Language"];
                        chatRole: components["schemas"]["ChatRole"];
                        tone: components["schemas"]["Tone"];
                        memberState: components["schemas"]["MemberState"];
                        muted: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    leaveChat: {
        parameters: {
            query?: {
                permanent?: boolean;
            };
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateOwnMembership: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example Ana
                     */
                    nickName?: string;
                    language?: components["schemas"]["LanguageInput"];
                    tone?: components["schemas"]["ToneInput"];
                    /** @example 42 */
                    lastReadMessage?: number;
                    muted?: boolean;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        lastReadMessage: number | null;
                        nickName: string;
                        language: components["schemas"]["Language"];
                        chatRole: components["schemas"]["ChatRole"];
                        tone: components["schemas"]["Tone"];
                        memberState: components["schemas"]["MemberState"];
                        muted: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    acceptChatInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        lastReadMessage: number | null;
                        nickName: string;
                        language: components["schemas"]["Language"];
                        chatRole: components["schemas"]["ChatRole"];
                        tone: components["schemas"]["Tone"];
                        memberState: components["schemas"]["MemberState"];
                        muted: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    listMembers: {
        parameters: {
            query?: {
                pageIndex?: number;
                pageSize?: number;
                /** @description Text on one line: no control characters, bidirectional overrides or byte order marks. */
                q?: string;
            };
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        count: number;
                        next: string | null;
                        previous: string | null;
                        results: {
                            /** @example 42 */
                            id: number;
                            user: string;
                            chatRole: components["schemas"]["ChatRole"];
                            nickName: string;
                            avatarImage: string | null;
                            memberState: components["schemas"]["MemberState"];
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    inviteMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @example ana@example.com
                     */
                    user: string;
                    chatRole: components["schemas"]["ChatRoleInput"];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        user: string;
                        chatRole: components["schemas"]["ChatRole"];
                        nickName: string;
                        avatarImage: string | null;
                        memberState: components["schemas"]["MemberState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    removeMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @example [
                     *       41,
                     *       42
                     *     ]
                     */
                    ids: number[];
                    /** @default false */
                    permanent?: boolean;
                };
            };
        };
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    setMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    chatRole: components["schemas"]["ChatRoleInput"];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        user: string;
                        chatRole: components["schemas"]["ChatRole"];
                        nickName: string;
                        avatarImage: string | null;
                        memberState: components["schemas"]["MemberState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    removeMember: {
        parameters: {
            query?: {
                permanent?: boolean;
            };
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    chatRole: components["schemas"]["ChatRoleInput"];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        user: string;
                        chatRole: components["schemas"]["ChatRole"];
                        nickName: string;
                        avatarImage: string | null;
                        memberState: components["schemas"]["MemberState"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    listMessages: {
        parameters: {
            query?: {
                limit?: number;
                toId?: number;
            };
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        next: string | null;
                        previous: string | null;
                        results: {
                            /** @example 42 */
                            id: number;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                            isMe: boolean;
                            language: components["schemas"]["Language"];
                            rawMessage: {
                                /** @example 42 */
                                id: number;
                                language: components["schemas"]["Language"];
                                content: string;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-25T09:30:00+00:00
                                 */
                                created: string;
                            } | null;
                            sender: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                                language: components["schemas"]["Language"];
                                chatRole: components["schemas"]["ChatRole"];
                                tone: components["schemas"]["Tone"];
                                avatarImage: string | null;
                            };
                            tone: components["schemas"]["Tone"];
                            content: string;
                            /** @enum {string} */
                            translation: "pending" | "done" | "failed" | "none";
                            edited: boolean;
                            mentions: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                            replyTo: {
                                /** @example 42 */
                                id: number;
                                sender: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                };
                                language: components["schemas"]["Language"];
                                content: string;
                                translated: boolean;
                            } | null;
                            reactions: {
                                emoji: string;
                                members: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                }[];
                            }[];
                            attachments: {
                                /** @example 42 */
                                id: number;
                                /** @enum {string} */
                                kind: "image" | "file";
                                name: string;
                                size: number;
                                contentType: string;
                                width: number | null;
                                height: number | null;
                                url: string;
                                thumbnailUrl: string | null;
                            }[];
                            correction: {
                                by: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-25T09:30:00+00:00
                                 */
                                at: string;
                                machine: string;
                            } | null;
                            missedTerms: string[];
                            pinned: {
                                by: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-25T09:30:00+00:00
                                 */
                                at: string;
                            } | null;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    postMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed.
                     * @example See you all at ten!
                     */
                    content: string;
                    /** Format: uuid */
                    clientId?: string;
                    /** @example 42 */
                    replyTo?: number;
                    attachments?: number[];
                };
            };
        };
        responses: {
            /** @description Already stored (the same clientId): what was stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawMessage: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            content: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        sender: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                            language: components["schemas"]["Language"];
                            chatRole: components["schemas"]["ChatRole"];
                            tone: components["schemas"]["Tone"];
                            avatarImage: string | null;
                        };
                        tone: components["schemas"]["Tone"];
                        content: string;
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        mentions: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                        }[];
                        replyTo: {
                            /** @example 42 */
                            id: number;
                            sender: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            };
                            language: components["schemas"]["Language"];
                            content: string;
                            translated: boolean;
                        } | null;
                        reactions: {
                            emoji: string;
                            members: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                        }[];
                        attachments: {
                            /** @example 42 */
                            id: number;
                            /** @enum {string} */
                            kind: "image" | "file";
                            name: string;
                            size: number;
                            contentType: string;
                            width: number | null;
                            height: number | null;
                            url: string;
                            thumbnailUrl: string | null;
                        }[];
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                        pinned: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                        } | null;
                    };
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawMessage: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            content: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        sender: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                            language: components["schemas"]["Language"];
                            chatRole: components["schemas"]["ChatRole"];
                            tone: components["schemas"]["Tone"];
                            avatarImage: string | null;
                        };
                        tone: components["schemas"]["Tone"];
                        content: string;
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        mentions: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                        }[];
                        replyTo: {
                            /** @example 42 */
                            id: number;
                            sender: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            };
                            language: components["schemas"]["Language"];
                            content: string;
                            translated: boolean;
                        } | null;
                        reactions: {
                            emoji: string;
                            members: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                        }[];
                        attachments: {
                            /** @example 42 */
                            id: number;
                            /** @enum {string} */
                            kind: "image" | "file";
                            name: string;
                            size: number;
                            contentType: string;
                            width: number | null;
                            height: number | null;
                            url: string;
                            thumbnailUrl: string | null;
                        }[];
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                        pinned: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                        } | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawMessage: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            content: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        sender: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                            language: components["schemas"]["Language"];
                            chatRole: components["schemas"]["ChatRole"];
                            tone: components["schemas"]["Tone"];
                            avatarImage: string | null;
                        };
                        tone: components["schemas"]["Tone"];
                        content: string;
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        mentions: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                        }[];
                        replyTo: {
                            /** @example 42 */
                            id: number;
                            sender: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            };
                            language: components["schemas"]["Language"];
                            content: string;
                            translated: boolean;
                        } | null;
                        reactions: {
                            emoji: string;
                            members: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                        }[];
                        attachments: {
                            /** @example 42 */
                            id: number;
                            /** @enum {string} */
                            kind: "image" | "file";
                            name: string;
                            size: number;
                            contentType: string;
                            width: number | null;
                            height: number | null;
                            url: string;
                            thumbnailUrl: string | null;
                        }[];
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                        pinned: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                        } | null;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    replaceMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example See you all at ten!
                     */
                    content: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawMessage: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            content: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        sender: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                            language: components["schemas"]["Language"];
                            chatRole: components["schemas"]["ChatRole"];
                            tone: components["schemas"]["Tone"];
                            avatarImage: string | null;
                        };
                        tone: components["schemas"]["Tone"];
                        content: string;
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        mentions: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                        }[];
                        replyTo: {
                            /** @example 42 */
                            id: number;
                            sender: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            };
                            language: components["schemas"]["Language"];
                            content: string;
                            translated: boolean;
                        } | null;
                        reactions: {
                            emoji: string;
                            members: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                        }[];
                        attachments: {
                            /** @example 42 */
                            id: number;
                            /** @enum {string} */
                            kind: "image" | "file";
                            name: string;
                            size: number;
                            contentType: string;
                            width: number | null;
                            height: number | null;
                            url: string;
                            thumbnailUrl: string | null;
                        }[];
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                        pinned: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                        } | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    deleteMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example See you all at ten!
                     */
                    content: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawMessage: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            content: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        sender: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                            language: components["schemas"]["Language"];
                            chatRole: components["schemas"]["ChatRole"];
                            tone: components["schemas"]["Tone"];
                            avatarImage: string | null;
                        };
                        tone: components["schemas"]["Tone"];
                        content: string;
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        mentions: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                        }[];
                        replyTo: {
                            /** @example 42 */
                            id: number;
                            sender: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            };
                            language: components["schemas"]["Language"];
                            content: string;
                            translated: boolean;
                        } | null;
                        reactions: {
                            emoji: string;
                            members: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                        }[];
                        attachments: {
                            /** @example 42 */
                            id: number;
                            /** @enum {string} */
                            kind: "image" | "file";
                            name: string;
                            size: number;
                            contentType: string;
                            width: number | null;
                            height: number | null;
                            url: string;
                            thumbnailUrl: string | null;
                        }[];
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                        pinned: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                        } | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    uploadAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description A picture (re-encoded to WebP, at most 40 megapixels) or any other file but a program or script (checked by content), at most 10 MB.
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        /** @enum {string} */
                        kind: "image" | "file";
                        name: string;
                        size: number;
                        contentType: string;
                        width: number | null;
                        height: number | null;
                        url: string;
                        thumbnailUrl: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
                variant: "file" | "thumbnail";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file: a picture (image/webp) inline, anything else as a download (Content-Disposition: attachment). */
            200: {
                headers: {
                    /** @description inline or attachment, with the file name */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/webp": string;
                    "application/pdf": string;
                    "application/octet-stream": string;
                };
            };
            /** @description The part a Range asked for. */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            /** @description Files kept in an S3-compatible bucket (S3_BUCKET): a redirect to a signed URL of the file that expires in 5 minutes. */
            302: {
                headers: {
                    /** @description The signed URL */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description A Range past the end of the file. */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            500: components["responses"]["ServerError"];
        };
    };
    getChatGlossary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: {
                            /** @example 42 */
                            id: number;
                            term: string;
                            language: components["schemas"]["Language"];
                            keep: boolean;
                            renderings: {
                                language: components["schemas"]["Language"];
                                text: string;
                            }[];
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            modified: string;
                        }[];
                        names: string[];
                        mayEdit: boolean;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    addChatGlossaryEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example standup
                     */
                    term: string;
                    language: components["schemas"]["LanguageInput"];
                    /** @default false */
                    keep?: boolean;
                    /** @default [] */
                    renderings?: {
                        language: components["schemas"]["LanguageInput"];
                        /**
                         * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                         * @example reunión diaria
                         */
                        text: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        term: string;
                        language: components["schemas"]["Language"];
                        keep: boolean;
                        renderings: {
                            language: components["schemas"]["Language"];
                            text: string;
                        }[];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    applyChatGlossary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queued: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    removeChatGlossaryEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    updateChatGlossaryEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example standup
                     */
                    term?: string;
                    language?: components["schemas"]["LanguageInput"];
                    keep?: boolean;
                    renderings?: {
                        language: components["schemas"]["LanguageInput"];
                        /**
                         * @description Text on one line: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                         * @example reunión diaria
                         */
                        text: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        term: string;
                        language: components["schemas"]["Language"];
                        keep: boolean;
                        renderings: {
                            language: components["schemas"]["Language"];
                            text: string;
                        }[];
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        modified: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    correctMessageRendering: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Text: no control characters, bidirectional overrides or byte order marks; white space around it is trimmed; not blank.
                     * @example See you all at ten!
                     */
                    content: string;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawMessage: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            content: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        sender: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                            language: components["schemas"]["Language"];
                            chatRole: components["schemas"]["ChatRole"];
                            tone: components["schemas"]["Tone"];
                            avatarImage: string | null;
                        };
                        tone: components["schemas"]["Tone"];
                        content: string;
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        mentions: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                        }[];
                        replyTo: {
                            /** @example 42 */
                            id: number;
                            sender: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            };
                            language: components["schemas"]["Language"];
                            content: string;
                            translated: boolean;
                        } | null;
                        reactions: {
                            emoji: string;
                            members: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                        }[];
                        attachments: {
                            /** @example 42 */
                            id: number;
                            /** @enum {string} */
                            kind: "image" | "file";
                            name: string;
                            size: number;
                            contentType: string;
                            width: number | null;
                            height: number | null;
                            url: string;
                            thumbnailUrl: string | null;
                        }[];
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                        pinned: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                        } | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    restoreMessageRendering: {
        parameters: {
            query?: {
                everyone?: boolean;
            };
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    listReactions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        messageId: number;
                        reactions: {
                            emoji: string;
                            members: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    addReaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description One emoji (a pictograph, keycap or flag, with its modifiers).
                     * @example 👍
                     */
                    emoji: string;
                };
            };
        };
        responses: {
            /** @description Already stored (the same clientId): what was stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        messageId: number;
                        reactions: {
                            emoji: string;
                            members: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                        }[];
                    };
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        messageId: number;
                        reactions: {
                            emoji: string;
                            members: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    removeReaction: {
        parameters: {
            query: {
                /** @description One emoji (a pictograph, keycap or flag, with its modifiers). */
                emoji: string;
            };
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    listMessageVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        messageId: number;
                        results: {
                            version: number;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            written: string;
                            language: components["schemas"]["Language"];
                            content: string;
                            /** @enum {string} */
                            translation: "pending" | "done" | "failed" | "none";
                            original: {
                                language: components["schemas"]["Language"];
                                content: string;
                            };
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    listReceipts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        results: {
                            /** @example 42 */
                            memberId: number;
                            nickName: string;
                            /** @example 42 */
                            lastReadMessage: number;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            readAt: string | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    listPresence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: {
                            /** @example 42 */
                            memberId: number;
                            /** @enum {string} */
                            state: "online" | "away" | "offline";
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            lastSeen: string | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    listPins: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: {
                            /** @example 42 */
                            id: number;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                            isMe: boolean;
                            language: components["schemas"]["Language"];
                            rawMessage: {
                                /** @example 42 */
                                id: number;
                                language: components["schemas"]["Language"];
                                content: string;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-25T09:30:00+00:00
                                 */
                                created: string;
                            } | null;
                            sender: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                                language: components["schemas"]["Language"];
                                chatRole: components["schemas"]["ChatRole"];
                                tone: components["schemas"]["Tone"];
                                avatarImage: string | null;
                            };
                            tone: components["schemas"]["Tone"];
                            content: string;
                            /** @enum {string} */
                            translation: "pending" | "done" | "failed" | "none";
                            edited: boolean;
                            mentions: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                            replyTo: {
                                /** @example 42 */
                                id: number;
                                sender: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                };
                                language: components["schemas"]["Language"];
                                content: string;
                                translated: boolean;
                            } | null;
                            reactions: {
                                emoji: string;
                                members: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                }[];
                            }[];
                            attachments: {
                                /** @example 42 */
                                id: number;
                                /** @enum {string} */
                                kind: "image" | "file";
                                name: string;
                                size: number;
                                contentType: string;
                                width: number | null;
                                height: number | null;
                                url: string;
                                thumbnailUrl: string | null;
                            }[];
                            correction: {
                                by: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-25T09:30:00+00:00
                                 */
                                at: string;
                                machine: string;
                            } | null;
                            missedTerms: string[];
                            pinned: {
                                by: {
                                    /** @example 42 */
                                    id: number;
                                    nickName: string;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @example 2026-11-25T09:30:00+00:00
                                 */
                                at: string;
                            } | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["ServerError"];
        };
    };
    pinMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                        isMe: boolean;
                        language: components["schemas"]["Language"];
                        rawMessage: {
                            /** @example 42 */
                            id: number;
                            language: components["schemas"]["Language"];
                            content: string;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            created: string;
                        } | null;
                        sender: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                            language: components["schemas"]["Language"];
                            chatRole: components["schemas"]["ChatRole"];
                            tone: components["schemas"]["Tone"];
                            avatarImage: string | null;
                        };
                        tone: components["schemas"]["Tone"];
                        content: string;
                        /** @enum {string} */
                        translation: "pending" | "done" | "failed" | "none";
                        edited: boolean;
                        mentions: {
                            /** @example 42 */
                            id: number;
                            nickName: string;
                        }[];
                        replyTo: {
                            /** @example 42 */
                            id: number;
                            sender: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            };
                            language: components["schemas"]["Language"];
                            content: string;
                            translated: boolean;
                        } | null;
                        reactions: {
                            emoji: string;
                            members: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            }[];
                        }[];
                        attachments: {
                            /** @example 42 */
                            id: number;
                            /** @enum {string} */
                            kind: "image" | "file";
                            name: string;
                            size: number;
                            contentType: string;
                            width: number | null;
                            height: number | null;
                            url: string;
                            thumbnailUrl: string | null;
                        }[];
                        correction: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                            machine: string;
                        } | null;
                        missedTerms: string[];
                        pinned: {
                            by: {
                                /** @example 42 */
                                id: number;
                                nickName: string;
                            } | null;
                            /**
                             * Format: date-time
                             * @example 2026-11-25T09:30:00+00:00
                             */
                            at: string;
                        } | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    unpinMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                groupChatId: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    getNotificationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        publicKey: string;
                        devices: number;
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["ServerError"];
        };
    };
    updateNotificationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled: boolean;
                };
            };
        };
        responses: {
            /** @description OK. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        publicKey: string;
                        devices: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    subscribePush: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @example https://fcm.googleapis.com/fcm/send/dvt4Xn0lz8Q:APA91bH3
                     */
                    endpoint: string;
                    expirationTime?: number | null;
                    keys: {
                        /** @example BOPHsYoJHhch5pK42hgDG0ChJ_AlvFWq5onA26fTuu58rHHbWs2ieqtsfdqKWO6mczlHo_4gmIvVF4NvKM3d538 */
                        p256dh: string;
                        /** @example 12LJYacgIv87op6F2qpoog */
                        auth: string;
                    };
                };
            };
        };
        responses: {
            /** @description Already stored (the same clientId): what was stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        endpoint: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                    };
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 42 */
                        id: number;
                        endpoint: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-25T09:30:00+00:00
                         */
                        created: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
    unsubscribePush: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["ServerError"];
        };
    };
}
