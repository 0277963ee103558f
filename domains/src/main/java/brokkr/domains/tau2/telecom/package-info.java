/**
 * tau2-bench's telecom domain, benchmark {@code tau2-telecom}: dual control, the user having a phone, tools and a
 * DB of their own. Transcribed from upstream's {@code src/tau2/domains/telecom/}: data_model.py and
 * user_data_model.py ({@code TelecomModel}), the 13 agent tools of tools.py and the 30 user tools of user_tools.py
 * with the methods tasks call by name ({@code TelecomTools}, {@code TelecomUserTools}, the device in
 * {@code Phone}, docstrings in {@code TelecomToolDocs}), and environment.py
 * ({@link brokkr.domains.tau2.telecom.TelecomDomain}, with {@code sync_tools} as {@code TelecomSync}). What upstream
 * keeps outside its two DBs (draft-bill id draws, the class-level VPN details) is the world's session value
 * ({@code TelecomSession}), which no hash covers. {@link brokkr.domains.tau2.telecom.TelecomBenchmark} puts the domain
 * on the shared tau2 runner.
 */
package brokkr.domains.tau2.telecom;
