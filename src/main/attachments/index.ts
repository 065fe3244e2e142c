/** What a user attaches to a message: checked, stored and put into the model message (docs/architecture.md, "Attachments in messages"). */
export { readImageInfo, type ImageInfo } from './image-info'
export { cutUtf8, prepareAttachments, type PreparedAttachment } from './prepare'
export { loadFromPrepared, resolveUserContent, unseenImageCount, userContentForHistory, withAttachedImages, type LoadImage } from './user-message'
