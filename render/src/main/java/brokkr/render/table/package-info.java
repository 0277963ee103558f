/**
 * A table as plain data ({@link brokkr.render.table.PlainTable}: title, typed columns, notes) and its
 * renderers: aligned text for a person, HTML and Markdown, CSV and JSON rows for programs.
 */
package brokkr.render.table;
