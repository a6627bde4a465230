"""The open table: strategies by name, seats deciding from their views, whole games played
decision by decision or by the kernels, game records, duplicate tournaments, and pitchsim
as an engine."""
