/**
 * What the CLI and the notebook both show, apart from either: plain tables ({@link brokkr.render.table}),
 * the experiment tables over a scorecard or a comparison ({@link brokkr.render.experiment}), charts
 * ({@link brokkr.render.chart}, XChart, loaded only when one is drawn) and the self-contained HTML report
 * ({@link brokkr.render.report}); here the number formats ({@link brokkr.render.Numbers}), JSON shown as
 * text ({@link brokkr.render.JsonText}) and HTML escaping. Depends on the engine only: no notebook library
 * (jjava, tablesaw) and no magic.
 */
package brokkr.render;
