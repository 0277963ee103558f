/** The scripted customer ({@code src/tau2/user}): opens with the task's request and performs its gold user actions. */
package brokkr.domains.tau2.user;
