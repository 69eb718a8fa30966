import type { RenderedTemplate, TemplateSend, WaTemplate, WaTemplateButton } from './whatsappApi';

/** What the agent types into a template's numbered placeholders ({{1}}, {{2}} ...), per part. */
export interface TemplateParameters {
  header: string[];
  body: string[];
  /** One per button whose URL has a placeholder, in the buttons' order. */
  buttons: string[];
}

const PLACEHOLDER = /\{\{(\d+)\}\}/g;

/** How many parameters a text takes: its highest placeholder number. */
export function placeholderCount(text: string | undefined): number {
  return Math.max(0, ...[...(text ?? '').matchAll(PLACEHOLDER)].map((match) => Number(match[1])));
}

/** The text with each placeholder replaced by its value; an empty value keeps the placeholder, so the preview shows what is missing. */
export function fillPlaceholders(text: string, values: readonly string[]): string {
  return text.replace(PLACEHOLDER, (placeholder, number: string) => values[Number(number) - 1]?.trim() || placeholder);
}

function component(template: WaTemplate, type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS') {
  return template.components.find((part) => part.type === type);
}

/** Only text headers take text; media headers are left to the template's own media. */
function headerText(template: WaTemplate): string | undefined {
  const header = component(template, 'HEADER');
  return header && (header.format ?? 'TEXT') === 'TEXT' ? header.text : undefined;
}

function templateButtons(template: WaTemplate): WaTemplateButton[] {
  return component(template, 'BUTTONS')?.buttons ?? [];
}

/** The parameter fields a template needs, with none filled. */
export function emptyParameters(template: WaTemplate): TemplateParameters {
  const blanks = (count: number) => Array.from({ length: count }, () => '');
  return {
    header: blanks(placeholderCount(headerText(template))),
    body: blanks(placeholderCount(component(template, 'BODY')?.text)),
    buttons: blanks(templateButtons(template).filter((button) => placeholderCount(button.url) > 0).length),
  };
}

export function parametersComplete(parameters: TemplateParameters): boolean {
  return [...parameters.header, ...parameters.body, ...parameters.buttons].every((value) => value.trim() !== '');
}

/** The template as the customer will see it with these parameters: the preview, and the copy shown while sending. */
export function renderTemplate(template: WaTemplate, parameters: TemplateParameters): RenderedTemplate {
  const header = headerText(template);
  const footer = component(template, 'FOOTER')?.text;
  let dynamicButton = 0;
  const buttons = templateButtons(template).map((button) =>
    button.url && placeholderCount(button.url) > 0 ? { ...button, url: fillPlaceholders(button.url, [parameters.buttons[dynamicButton++] ?? '']) } : button,
  );
  return {
    name: template.name,
    language: template.language,
    ...(header ? { header: fillPlaceholders(header, parameters.header) } : {}),
    body: fillPlaceholders(component(template, 'BODY')?.text ?? '', parameters.body),
    ...(footer ? { footer } : {}),
    ...(buttons.length > 0 ? { buttons } : {}),
  };
}

/** `data.template` of a 1021 send: the server fills the synced template itself. */
export function templateSendData(template: WaTemplate, parameters: TemplateParameters): TemplateSend {
  const trimmed = (values: string[]) => values.map((value) => value.trim());
  return {
    name: template.name,
    language: template.language,
    parameters: { header: trimmed(parameters.header), body: trimmed(parameters.body), buttons: trimmed(parameters.buttons) },
  };
}
