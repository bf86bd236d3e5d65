/** The settings the web server puts into index.html at run time (tools/web-server/page-settings.mjs). */
export type PageSettingName = 'api-origin' | 'member-web-url' | 'admin-web-url';

/**
 * The deployment's word on `name`, from `<meta name="mate:<name>">` in the served page, or
 * undefined when the server was not given it. It comes before what the build was told: one image
 * serves any host and port.
 */
export function pageSetting(name: PageSettingName, doc: Pick<Document, 'querySelector'> = document): string | undefined {
  const content = doc.querySelector<HTMLMetaElement>(`meta[name="mate:${name}"]`)?.content.trim();
  return content || undefined;
}
