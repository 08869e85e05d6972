/**
 * Text rendering (Markdown → sanitized HTML), shared by every domain that stores a message. It brings the Markdown
 * parser into a bundle, so only the use cases that render import it (the bundle report shows who does).
 */
export { mentionedUsernames, renderMarkdown, renderMessage } from './render-markdown.ts';
