/** Text rendering (Markdown → sanitized HTML), shared by every domain that stores a message. */
export { renderMarkdown } from './render-markdown.ts';
