import type { ImageInput, ProviderKind } from '../../shared'

/** Model names that take images on OpenAI-compatible servers (Ollama, vLLM, LM Studio, DashScope …). */
const VISION_MODEL_NAMES = /(vision|[-_.:]vl\b|vl[-_.:]|llava|bakllava|moondream|minicpm-v|pixtral|gemma-?3|qwen[\d.]*-?vl|qvq|gpt-4o|gpt-4\.1|gpt-5|claude|gemini|llama-?4|internvl|glm-4v|kimi.*vision)/i
/** OpenAI models that refuse image input. */
const TEXT_ONLY_OPENAI = /^(gpt-3\.5|o1-mini|o3-mini|o4-mini-high-text)/i

/**
 * Whether the model is sent the images tools return (docs/architecture.md, "Images"). `auto`
 * trusts the hosted providers, and on OpenAI-compatible servers only names that say vision: an
 * image sent to a text-only model fails the whole request, a note in its place costs nothing.
 */
export function modelAcceptsImages(settings: { provider: ProviderKind; model: string; imageInput: ImageInput }): boolean {
  if (settings.imageInput !== 'auto') return settings.imageInput === 'on'
  switch (settings.provider) {
    case 'anthropic':
      return true
    case 'openai':
      return !TEXT_ONLY_OPENAI.test(settings.model)
    case 'openai-compatible':
      return VISION_MODEL_NAMES.test(settings.model)
  }
}
